import Foundation
import InkwellSync
import InkwellTesting
import PropertyBased
import Testing

/// `TextSequence`: what people typing into one text at once keep, the hostile inputs it shrugs off, and
/// convergence over random sessions, which `Conformance/text.json` carries to the page.
@Suite struct TextSequenceTests {
    /// One replica typing: its text, clock and the operations it made.
    struct Typist {
        let replica: ReplicaID
        var seq: UInt64 = 0
        var clock = HybridLogicalClock()
        var wall: UInt64 = 1_800_000_000_000
        var text = TextSequence()
        var made: [Operation] = []

        init(_ number: UInt64) {
            replica = ReplicaID(high: number << 56, low: number)
        }

        enum Operation: Hashable {
            case insert(String, id: OpStamp, after: TextSequence.Anchor?)
            case delete(run: OperationID, offsets: Range<UInt32>)
        }

        mutating func nextID() -> OpStamp {
            seq += 1
            wall += 3
            return OpStamp(stamp: clock.next(wallMilliseconds: wall), change: ChangeID(replica: replica, seq: seq))
        }

        /// Types `text` at visible position `index`, one character at a time, each after the last.
        mutating func type(_ text: String, at index: Int) {
            var anchor = index == 0 ? nil : self.text.anchor(ofVisible: index - 1)
            for scalar in text.unicodeScalars {
                let id = nextID()
                apply(.insert(String(scalar), id: id, after: anchor))
                anchor = TextSequence.Anchor(run: id.operation, offset: 0)
            }
        }

        /// Pastes `text` as one run at visible position `index`.
        mutating func paste(_ text: String, at index: Int) {
            apply(.insert(text, id: nextID(), after: index == 0 ? nil : self.text.anchor(ofVisible: index - 1)))
        }

        /// Deletes `count` visible characters from `index`.
        mutating func delete(_ count: Int, at index: Int) {
            let visible = text.characters.filter(\.visible).map(\.anchor)
            for anchor in visible.dropFirst(index).prefix(count) {
                apply(.delete(run: anchor.run, offsets: anchor.offset..<anchor.offset + 1))
            }
        }

        mutating func apply(_ operation: Operation) {
            Self.apply(operation, to: &text)
            made.append(operation)
        }

        mutating func receive(_ operations: [Operation]) {
            for operation in operations {
                if case .insert(_, let id, _) = operation { clock.witness(id.stamp, wallMilliseconds: wall) }
                Self.apply(operation, to: &text)
            }
        }

        static func apply(_ operation: Operation, to text: inout TextSequence) {
            switch operation {
            case .insert(let string, let id, let after): text.insert(string, id: id, after: after)
            case .delete(let run, let offsets): text.delete(run: run, offsets: offsets)
            }
        }
    }

    @Test func twoPeopleTypingAtOnePlaceBothKeepTheirWordsWhole() {
        var ada = Typist(1)
        var bo = Typist(2)
        ada.paste("Hi !", at: 0)
        bo.receive(ada.made)
        ada.type("there", at: 3)
        bo.type("you", at: 3)
        let adaMade = ada.made
        ada.receive(bo.made)
        bo.receive(adaMade)
        #expect(ada.text == bo.text)
        #expect(["Hi thereyou!", "Hi youthere!"].contains(ada.text.text), "\(ada.text.text)")
        // Typing on at the end of one's own word stays in it.
        ada.type("?", at: ada.text.text.unicodeScalars.count - 1)
        #expect(ada.text.text.hasSuffix("?!"))
    }

    @Test func textTypedIntoADeletedStretchStillShows() {
        var ada = Typist(1)
        var bo = Typist(2)
        ada.paste("abcdef", at: 0)
        bo.receive(ada.made)
        ada.delete(4, at: 1)
        bo.type("XY", at: 3)
        let adaMade = ada.made
        ada.receive(bo.made)
        bo.receive(adaMade)
        #expect(ada.text.text == "aXYf" && bo.text.text == "aXYf")
    }

    @Test func hostileInsertsChangeNothingTheyShouldNot() {
        var text = TextSequence()
        let a = OpStamp(
            stamp: Stamp(wallMilliseconds: 10),
            change: ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 1)
        )
        let b = OpStamp(
            stamp: Stamp(wallMilliseconds: 11),
            change: ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 2)
        )
        let c = OpStamp(
            stamp: Stamp(wallMilliseconds: 12),
            change: ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 3)
        )
        let taken = [
            text.insert("ab", id: a, after: nil),
            // A run's id is used once; an empty or too long run is nothing.
            text.insert("zz", id: a, after: nil),
            text.insert("", id: b, after: nil),
            text.insert(String(repeating: "x", count: TextSequence.maximumRunLength + 1), id: b, after: nil),
            // After a character past the end of its run, or after itself: kept, never shown.
            text.insert("past", id: b, after: .init(run: a.operation, offset: 2)),
            text.insert("self", id: c, after: .init(run: c.operation, offset: 0)),
        ]
        #expect(taken == [true, false, false, false, true, false])
        let d = OpStamp(stamp: Stamp(wallMilliseconds: 13), change: c.change, index: 1)
        let e = OpStamp(stamp: Stamp(wallMilliseconds: 14), change: c.change, index: 2)
        text.insert("d", id: d, after: .init(run: e.operation, offset: 0))
        text.insert("e", id: e, after: .init(run: d.operation, offset: 0))
        #expect(text.text == "ab")
        // A chain of runs each after the last, as deep as a hostile peer likes, walks without recursion.
        var deep = TextSequence()
        var previous: TextSequence.Anchor?
        for n in 0..<200_000 {
            let id = OpStamp(
                stamp: Stamp(wallMilliseconds: UInt64(n) + 1),
                change: ChangeID(replica: ReplicaID(high: 2, low: 2), seq: UInt64(n) + 1)
            )
            deep.insert("x", id: id, after: previous)
            previous = .init(run: id.operation, offset: 0)
        }
        #expect(deep.text.unicodeScalars.count == 200_000)
    }

    /// Three typists editing one text with random exchanges.
    static func session(seed: UInt64, steps: Int = 90) -> [Typist.Operation] {
        var random = SplitMix64(seed: seed)
        var typists = [Typist(1), Typist(2), Typist(3)]
        var delivered = [0, 0, 0].map { _ in [Int](repeating: 0, count: 3) }
        let words = ["ink", "well", "é", "🙂", "board", " ", "\n"]
        for step in 0..<steps {
            let index = step % 3
            let length = typists[index].text.text.unicodeScalars.count
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                typists[index].type(
                    words.randomElement(using: &random)!,
                    at: Int.random(in: 0...length, using: &random)
                )
            case 5..<7:
                typists[index].paste(
                    words.randomElement(using: &random)! + "!",
                    at: Int.random(in: 0...length, using: &random)
                )
            case 7..<9 where length > 0:
                typists[index].delete(
                    Int.random(in: 1...3, using: &random),
                    at: Int.random(in: 0..<length, using: &random)
                )
            default:
                // Catch up with someone.
                let other = (index + Int.random(in: 1...2, using: &random)) % 3
                let new = Array(typists[other].made.dropFirst(delivered[index][other]))
                typists[index].receive(new)
                delivered[index][other] = typists[other].made.count
            }
        }
        return typists.flatMap(\.made)
    }

    @Test func randomSessionsConvergeInAnyOrderWithRepeats() async {
        await propertyCheck(count: 60, input: Gen.uint64()) { seed in
            let operations = Self.session(seed: seed, steps: 60)
            var reference = TextSequence()
            for operation in operations { Typist.apply(operation, to: &reference) }
            var random = SplitMix64(seed: seed)
            var shuffled = operations + operations.filter { _ in Bool.random(using: &random) }
            shuffled.shuffle(using: &random)
            var replica = TextSequence()
            for operation in shuffled { Typist.apply(operation, to: &replica) }
            #expect(replica == reference && replica.text == reference.text, "seed \(seed)")
        }
    }

    @Test func textVectorsAreCurrent() throws {
        let sessions = ([5, 6, 7] as [UInt64]).map { seed -> [String: Any] in
            let operations = Self.session(seed: seed)
            var random = SplitMix64(seed: seed)
            var delivery = operations + operations.prefix(10)
            delivery.shuffle(using: &random)
            var text = TextSequence()
            for operation in delivery { Typist.apply(operation, to: &text) }
            let visible = text.characters.filter(\.visible)
            return [
                "seed": seed,
                "operations": delivery.map(Self.json),
                "text": text.text,
                "anchors": visible.map { Self.json($0.anchor) },
            ]
        }
        try ConformanceVectorFile(name: "text.json").check([
            "format": "inkwell-text-conformance/2",
            "about": "Each session's `operations`, applied in the order given to an empty text (repeats included), "
                + "give exactly `text`, whose characters (Unicode scalars) are the ones `anchors` name, in order. "
                + "An insert's `id` is {stamp: {wall, counter}, change: {replica, seq}, index}; an anchor's and a "
                + "delete's `run` name the insert by its operation alone, {change: {replica, seq}, index}; "
                + "a delete hides the offsets `from`..<`to` of its run.",
            "sessions": sessions,
        ])
    }

    static func json(_ id: OpStamp) -> [String: Any] {
        [
            "stamp": ["wall": id.stamp.wallMilliseconds, "counter": Int(id.stamp.counter)],
            "change": ["replica": id.change.replica.description, "seq": id.change.seq],
            "index": Int(id.index),
        ]
    }

    static func json(_ id: OperationID) -> [String: Any] {
        ["change": ["replica": id.change.replica.description, "seq": id.change.seq], "index": Int(id.index)]
    }

    static func json(_ anchor: TextSequence.Anchor) -> [String: Any] {
        ["run": json(anchor.run), "offset": Int(anchor.offset)]
    }

    static func json(_ operation: Typist.Operation) -> [String: Any] {
        switch operation {
        case .insert(let text, let id, let after):
            ["op": "insert", "id": json(id), "after": after.map(json) as Any? ?? NSNull(), "text": text]
        case .delete(let run, let offsets):
            ["op": "delete", "run": json(run), "from": Int(offsets.lowerBound), "to": Int(offsets.upperBound)]
        }
    }
}
