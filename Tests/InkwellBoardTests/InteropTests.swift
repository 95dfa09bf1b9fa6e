import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@Suite struct InteropTests {
    func decode(_ text: String) throws(InteropError) -> InteropMessage {
        try InteropMessage(json: Array(text.utf8))
    }

    @Test func decodesTheExamplesOfTheProtocol() throws {
        #expect(
            try decode(
                #"{ "type": "ADD", "identifier": "ABC_123", "weight": 1, "colour": [50, 0, 0], "start": [0, 0] }"#
            )
                == .add(
                    identifier: "ABC_123",
                    weight: 1,
                    colour: Colour(red: 50, green: 0, blue: 0),
                    start: Point(0, 0)
                )
        )
        #expect(
            try decode(#"{ "type": "APPEND", "identifier": "ABC_123", "points": [[127, 45], [35, 78]] }"#)
                == .append(identifier: "ABC_123", points: [Point(127, 45), Point(35, 78)])
        )
        #expect(
            try decode(#"{ "type": "DELETE", "identifier": "ABC_123", "start_offset": 15, "end_offset": 67 }"#)
                == .delete(identifier: "ABC_123", startOffset: 15, endOffset: 67)
        )
    }

    @Test(arguments: [
        (#"not json"#, InteropError.notJSON),
        (#"[1, 2]"#, .notAMessage),
        (#"{"identifier": "a"}"#, .notAMessage),
        (#"{"type": 7}"#, .notAMessage),
        (#"{"type": "MOVE", "identifier": "a"}"#, .unknownType),
        (#"{"type": "ADD", "weight": 1, "colour": [1, 2, 3], "start": [0, 0]}"#, .badField("identifier")),
        (
            #"{"type": "ADD", "identifier": "", "weight": 1, "colour": [1, 2, 3], "start": [0, 0]}"#,
            .badField("identifier")
        ),
        (
            #"{"type": "ADD", "identifier": "a", "weight": 0, "colour": [1, 2, 3], "start": [0, 0]}"#,
            .badField("weight")
        ),
        (
            #"{"type": "ADD", "identifier": "a", "weight": "1", "colour": [1, 2, 3], "start": [0, 0]}"#,
            .badField("weight")
        ),
        (
            #"{"type": "ADD", "identifier": "a", "weight": 1e400, "colour": [1, 2, 3], "start": [0, 0]}"#,
            .numberOutOfRange
        ),
        (#"{"type": "ADD", "identifier": "a", "weight": 1, "colour": [1, 2], "start": [0, 0]}"#, .badField("colour")),
        (
            #"{"type": "ADD", "identifier": "a", "weight": 1, "colour": [1, 2, 256], "start": [0, 0]}"#,
            .badField("colour")
        ),
        (
            #"{"type": "ADD", "identifier": "a", "weight": 1, "colour": [1, 2.5, 3], "start": [0, 0]}"#,
            .badField("colour")
        ),
        (#"{"type": "ADD", "identifier": "a", "weight": 1, "colour": [1, 2, 3], "start": [0]}"#, .badField("start")),
        (
            #"{"type": "ADD", "identifier": "a", "weight": 1, "colour": [1, 2, 3], "start": [0, 1e300]}"#,
            .badField("start")
        ),
        (#"{"type": "APPEND", "identifier": "a", "points": []}"#, .badField("points")),
        (#"{"type": "APPEND", "identifier": "a", "points": [[1, 2], [3]]}"#, .badField("points")),
        (#"{"type": "APPEND", "identifier": "a", "points": [[1, true]]}"#, .badField("points")),
        (#"{"type": "DELETE", "identifier": "a", "start_offset": 1}"#, .badField("end_offset")),
        (#"{"type": "DELETE", "identifier": "a", "start_offset": null, "end_offset": 2}"#, .badField("start_offset")),
    ])
    func malformedMessagesGetATypedError(json: String, error: InteropError) {
        #expect(throws: error) { try decode(json) }
    }

    @Test func oversizedMessagesAreRejectedBeforeParsing() {
        let huge = [UInt8](repeating: 0x20, count: InteropMessage.maximumBytes + 1)
        #expect(throws: InteropError.tooLarge) { try InteropMessage(json: huge) }
    }

    @Test func encodedMessagesDecodeToThemselves() throws {
        let messages: [InteropMessage] = [
            .add(identifier: "x", weight: 2.5, colour: Colour(red: 1, green: 2, blue: 3), start: Point(0.25, -7)),
            .append(identifier: "x", points: [Point(1, 2), Point(3.5, 4)]),
            .delete(identifier: "x", startOffset: 0.5, endOffset: 1.75),
        ]
        for message in messages { #expect(try InteropMessage(json: message.json) == message) }
    }

    @Test func appendAndDeleteWaitForTheirAdd() throws {
        var session = InteropSession(replica: ReplicaID(high: 7, low: 7), board: "main")
        var board = BoardState(board: "main")
        let now: UInt64 = 1_800_000_000_000
        for message in [
            InteropMessage.delete(identifier: "s", startOffset: 1, endOffset: 2),
            .append(identifier: "s", points: [Point(10, 0), Point(20, 0), Point(30, 0)]),
        ] {
            #expect(session.receive(message, wallMilliseconds: now).isEmpty)
        }
        #expect(session.waitingCount == 2)
        let changes = session.receive(
            .add(identifier: "s", weight: 3, colour: .black, start: Point(0, 0)),
            wallMilliseconds: now
        )
        #expect(changes.count == 3)
        #expect(session.waitingCount == 0)
        board.apply(contentsOf: changes)
        let stroke = try #require(board.drawing.first)
        #expect(stroke.points == line(4))
        #expect(stroke.pieces == [interval(0, 1), interval(2, 3)])
        #expect(
            session.receive(.add(identifier: "s", weight: 3, colour: .black, start: Point(0, 0)), wallMilliseconds: now)
                .isEmpty,
            "ADD is idempotent"
        )
        #expect(
            session.receive(.delete(identifier: "s", startOffset: 2, endOffset: 2), wallMilliseconds: now).isEmpty,
            "an empty DELETE removes nothing"
        )
    }

    /// Inkwell → protocol → another app's view of the same board, through the messages alone.
    @Test func aBoardDescribedThroughTheProtocolLooksTheSame() throws {
        var alice = Author(1)
        let first = alice.change(add(line(6)))
        let second = alice.change(
            add(line(3, y: 9), style: StrokeStyle(colour: Colour(red: 9, green: 8, blue: 7), width: 4))
        )
        let append = alice.change(.appendPoints(stroke(of: first), points: [Point(60, 0)], pressures: nil))
        let erase = alice.change(.erase(stroke(of: first), [interval(1, 2), interval(4, 5)]))
        let delete = alice.change(.set(stroke(of: second), .deleted(true)))
        var source = BoardState(board: "main")
        let outgoing = InteropSession(replica: ReplicaID(high: 8, low: 8), board: "main")
        var messages: [InteropMessage] = []
        for change in [first, second, append, erase, delete] {
            source.apply(change)
            messages += outgoing.messages(for: change, in: source)
        }
        // The other app replays the messages into its own board through its own session.
        var mirror = BoardState(board: "main")
        var incoming = InteropSession(replica: ReplicaID(high: 9, low: 9), board: "main")
        for message in messages {
            let decoded = try InteropMessage(json: message.json)
            mirror.apply(contentsOf: incoming.receive(decoded, wallMilliseconds: 1_800_000_000_000))
        }
        #expect(mirror.drawing.map(\.points) == source.drawing.map(\.points))
        #expect(mirror.drawing.map(\.pieces) == source.drawing.map(\.pieces))
        #expect(mirror.drawing.map(\.colour) == source.drawing.map(\.colour))
    }

    /// What a change decoder hands over from a hostile replica's bytes (no points, non-finite numbers, an
    /// append to or undo of another's work): the board ignores it, and so does the description sent to the app.
    @Test func operationsTheBoardIgnoresAreNotDescribed() throws {
        var alice = Author(1)
        var mallory = Author(6)
        let real = alice.change(add(line(3)))
        let ignored = [
            mallory.change(.addStroke(pen, points: [], pressures: nil)),
            mallory.change(add(line(2), style: StrokeStyle(colour: .black, width: .nan))),
            mallory.change(add([Point(.nan, 0), Point(.infinity, 1)])),
            mallory.change(.addStroke(pen, points: line(2), pressures: [.nan, 0.5])),
            mallory.change(.appendPoints(stroke(of: real), points: line(2), pressures: nil)),
            alice.change(.appendPoints(stroke(of: real), points: [Point(0, .infinity)], pressures: nil)),
            alice.change(.appendPoints(stroke(of: real), points: [], pressures: nil)),
            mallory.change(.erase(stroke(of: real), [interval(-.infinity, 2), interval(1, .nan)])),
            mallory.change(.undo(real.id)),
        ]
        var board = BoardState(board: "main")
        board.apply(real)
        let session = InteropSession(replica: ReplicaID(high: 8, low: 8), board: "main")
        let drawn = board.canonicalEncoding()
        for change in ignored {
            board.apply(change)
            let messages = session.messages(for: change, in: board)
            #expect(messages.isEmpty, "\(change.payload.operations)")
            for message in messages { _ = message.json }
        }
        #expect(board.canonicalEncoding() == drawn)

        let partly = mallory.change(.erase(stroke(of: real), [interval(0.5, 1), interval(-.infinity, 2)]))
        board.apply(partly)
        let messages = session.messages(for: partly, in: board)
        #expect(messages == [.delete(identifier: stroke(of: real).description, startOffset: 0.5, endOffset: 1)])
        #expect(try messages.map { try InteropMessage(json: $0.json) } == messages)
    }

    /// Random bytes, random JSON and mutated valid messages: each either decodes or throws a typed error.
    @Test func hostileInputNeverCrashes() {
        var generator = SplitMix64(seed: 2026)
        let seeds = [
            #"{"type":"ADD","identifier":"ABC_123","weight":1,"colour":[50,0,0],"start":[0,0]}"#,
            #"{"type":"APPEND","identifier":"ABC_123","points":[[127,45],[35,78]]}"#,
            #"{"type":"DELETE","identifier":"ABC_123","start_offset":15,"end_offset":67}"#,
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]":,.-+eE0123456789 truefalsnADPEDLT"#.utf8)
        var decoded = 0
        var rejected = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:
                bytes = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
            case 1:
                bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            default:
                bytes = seeds.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                    }
                    if bytes.isEmpty { break }
                }
            }
            do {
                _ = try InteropMessage(json: bytes)
                decoded += 1
            } catch {
                rejected += 1
            }
        }
        #expect(decoded + rejected == 20_000)
        #expect(decoded > 0 && rejected > 0)
    }
}
