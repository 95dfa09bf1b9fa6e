import Foundation
import InkwellBoard
import InkwellBoardTesting
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

/// Writes `Conformance/board.json`: lists of changes in delivery order → the visible geometry and
/// canonical hash. The browser client must reproduce every case exactly.
@Suite struct BoardVectorTests {
    struct Case {
        let name: String
        let changes: [BoardChange]
    }

    static func cases() -> [Case] {
        var cases: [Case] = []
        var alice = Author(1)
        var bob = Author(2)
        let red = Colour(red: 200, green: 10, blue: 10)

        let single = alice.change(add(line(4)))
        cases.append(Case(name: "one stroke", changes: [single]))

        let drawn = alice.change(add(line(6, y: 10)))
        bob.saw(drawn)
        let early = bob.change(.erase(stroke(of: drawn), [interval(1, 2.5)]))
        cases.append(Case(name: "erase before add", changes: [early, drawn]))

        let dotStart = alice.change(add([Point(0, 20)], style: StrokeStyle(colour: red, width: 3)))
        let dotID = stroke(of: dotStart)
        let append1 = alice.change(.appendPoints(dotID, points: [Point(5, 21), Point(9, 24)], pressures: nil))
        let append2 = alice.change(.appendPoints(dotID, points: [Point(14, 22)], pressures: nil))
        cases.append(Case(name: "appends out of order and before add", changes: [append2, append1, dotStart]))

        let shared = alice.change(add(line(11, y: 30)))
        bob.saw(shared)
        let eraseA = alice.change(.erase(stroke(of: shared), [interval(1, 3)]))
        let eraseB = bob.change(.erase(stroke(of: shared), [interval(2, 5), interval(8.25, 9.75)]))
        cases.append(Case(name: "concurrent erases union", changes: [eraseB, shared, eraseA]))

        let undoA = alice.change(.undo(eraseA.id))
        cases.append(Case(name: "erase undone while another erases more", changes: [shared, eraseA, eraseB, undoA]))
        let redoA = alice.change(.redo(eraseA.id))
        cases.append(Case(name: "erase undone then redone", changes: [redoA, shared, undoA, eraseB, eraseA]))

        let coloured = alice.change(add(line(3, y: 40)))
        bob.saw(coloured)
        let toRed = bob.change(.set(stroke(of: coloured), .colour(red)))
        alice.saw(toRed)
        let toBlue = alice.change(.set(stroke(of: coloured), .colour(Colour(red: 0, green: 0, blue: 255, alpha: 128))))
        let undoBlue = alice.change(.undo(toBlue.id))
        cases.append(Case(name: "attribute last writer wins", changes: [toBlue, coloured, toRed]))
        cases.append(
            Case(name: "attribute undo brings back the previous write", changes: [coloured, toRed, toBlue, undoBlue])
        )

        let before = alice.change(add(line(3, y: 50)))
        bob.saw(before)
        let clear = bob.change(.clear)
        alice.saw(clear)
        let after = alice.change(add(line(3, y: 55)))
        cases.append(Case(name: "clear hides earlier strokes only", changes: [after, clear, before]))
        let undoClear = bob.change(.undo(clear.id))
        cases.append(Case(name: "clear undone", changes: [before, clear, after, undoClear]))

        let aliceClear = alice.change(.clear)
        let undoAliceClear = alice.change(.undo(aliceClear.id))
        cases.append(Case(name: "concurrent clears, one undone", changes: [before, aliceClear, clear, undoAliceClear]))

        let low = alice.change(add(line(2, y: 60)))
        let high = alice.change(add(line(2, y: 61)))
        let lift = alice.change(.set(stroke(of: low), .zOrder(2.5)))
        let sink = alice.change(.set(stroke(of: high), .zOrder(-1)))
        cases.append(Case(name: "z-order", changes: [sink, high, lift, low]))

        let doomed = alice.change(add(line(3, y: 70)))
        let delete = alice.change(.set(stroke(of: doomed), .deleted(true)))
        let undelete = alice.change(.undo(delete.id))
        cases.append(Case(name: "deleted", changes: [delete, doomed]))
        cases.append(Case(name: "delete undone", changes: [doomed, undelete, delete]))

        let dot = alice.change(add([Point(80, 80)]))
        let eraseDot = alice.change(.erase(stroke(of: dot), [interval(-0.5, 0.5)]))
        cases.append(
            Case(name: "a dot and an erased dot", changes: [dot, alice.change(add([Point(90, 80)])), eraseDot])
        )

        let pair = alice.change(add(line(2, y: 90)), add(line(2, y: 91)))
        let undoPair = alice.change(.undo(pair.id))
        cases.append(Case(name: "several strokes in one change", changes: [pair]))
        cases.append(Case(name: "several strokes undone together", changes: [undoPair, pair]))

        let long = alice.change(add(line(3, y: 100)))
        let middle = alice.change(
            .appendPoints(stroke(of: long), points: [Point(30, 100), Point(40, 100)], pressures: nil)
        )
        let tail = alice.change(.appendPoints(stroke(of: long), points: [Point(50, 100)], pressures: nil))
        let undoMiddle = alice.change(.undo(middle.id))
        cases.append(Case(name: "append undone", changes: [tail, long, undoMiddle, middle]))

        let pressured = alice.change(
            .addStroke(pen, points: line(3, y: 110), pressures: [0.25, 0.5, 1]),
            .set(
                StrokeID(change: ChangeID(replica: alice.replica, seq: alice.seq + 1)),
                .transform(Transform(a: 2, b: 0, c: 0.5, d: 1, tx: -3, ty: 7.5))
            )
        )
        let pressureAppend = alice.change(
            .appendPoints(stroke(of: pressured), points: [Point(30, 110)], pressures: nil)
        )
        cases.append(Case(name: "pressure and transform", changes: [pressured, pressureAppend]))

        var elsewhere = Author(3, board: "other")
        cases.append(
            Case(
                name: "duplicates and other boards change nothing",
                changes: [single, single, elsewhere.change(add(line(2))), single]
            )
        )

        var mallory = Author(9)
        let hijack = mallory.change(.appendPoints(stroke(of: single), points: [Point(99, 99)], pressures: nil))
        let foreignUndo = mallory.change(.undo(single.id))
        let malformed = mallory.change(
            add([], style: pen),
            add(line(2), style: StrokeStyle(colour: red, width: 0)),
            .addStroke(pen, points: line(2), pressures: [0.5]),
            .erase(stroke(of: single), [interval(3, 1)])
        )
        cases.append(
            Case(
                name: "ignored: foreign append, foreign undo, malformed",
                changes: [hijack, single, foreignUndo, malformed]
            )
        )

        cases.append(contentsOf: settleCases())
        cases.append(contentsOf: textCases())
        cases.append(contentsOf: imageCases())
        cases.append(contentsOf: brushCases())
        cases.append(Case(name: "random session", changes: randomSession(seed: 17)))
        return cases
    }

    /// Settles: what they fix, which one governs, the appends they void, and what the board ignores.
    static func settleCases() -> [Case] {
        var cases: [Case] = []
        var carol = Author(7)
        var dave = Author(8)

        let kept = carol.change(add(line(3, y: 120)))
        let gone = carol.change(add(line(3, y: 125)))
        let undoGone = carol.change(.undo(gone.id))
        let settle = carol.change(.settle(through: undoGone.id.seq, inactive: [gone.id.seq]))
        let lateUndo = carol.change(.undo(kept.id))
        let lateRedo = carol.change(.redo(gone.id))
        cases.append(
            Case(
                name: "a settle fixes what undo and redo did",
                changes: [lateRedo, lateUndo, gone, settle, kept, undoGone]
            )
        )

        let liar = carol.change(.settle(through: lateRedo.id.seq, inactive: [kept.id.seq]))
        let honest = carol.change(.settle(through: lateRedo.id.seq, inactive: []))
        cases.append(
            Case(
                name: "the earliest settle governs, whatever the registers say",
                changes: [honest, kept, lateUndo, liar, gone]
            )
        )

        let growing = carol.change(add(line(2, y: 130)))
        let before = carol.change(.appendPoints(stroke(of: growing), points: [Point(20, 130)], pressures: nil))
        let closing = carol.change(.settle(through: before.id.seq, inactive: []))
        let after = carol.change(.appendPoints(stroke(of: growing), points: [Point(30, 130)], pressures: nil))
        cases.append(
            Case(name: "a settle voids the appends after it", changes: [after, growing, before, closing])
        )
        cases.append(Case(name: "an append the settle does not reach", changes: [after, growing, before]))

        let target = dave.change(add(line(3, y: 140)))
        let undone = dave.change(.undo(target.id))
        let outOfBounds = dave.change(
            .settle(through: 0, inactive: []),
            .settle(through: 9, inactive: [target.id.seq]),
            .settle(through: undone.id.seq, inactive: [undone.id.seq + 1])
        )
        let others = carol.change(.settle(through: carol.seq, inactive: [target.id.seq]))
        cases.append(
            Case(
                name: "ignored: settles out of bounds, settles of another's changes",
                changes: [outOfBounds, target, others]
            )
        )
        let activeAgain = dave.change(.settle(through: undone.id.seq, inactive: []))
        let undoSettle = dave.change(.undo(activeAgain.id))
        cases.append(
            Case(
                name: "a settle works whatever its own change's fate",
                changes: [undoSettle, target, undone, activeAgain]
            )
        )

        let doomed = carol.change(add(line(3, y: 150)))
        dave.saw(doomed)
        let delete = carol.change(.set(stroke(of: doomed), .deleted(true)))
        dave.saw(delete)
        let revive = dave.change(.set(stroke(of: doomed), .deleted(false)))
        cases.append(Case(name: "deleting is a tombstone", changes: [revive, doomed, delete]))
        return cases
    }

    /// Text boxes: typing by two at once, text before its box, undo and redo of typing, style and
    /// transform, and what a box ignores.
    static func textCases() -> [Case] {
        var cases: [Case] = []
        var erin = Author(10)
        var finn = Author(11)
        let blue = Colour(red: 20, green: 40, blue: 220)

        let box = erin.change(.addText(TextStyle(colour: blue, size: 24), at: Point(10, 200)))
        let boxID = stroke(of: box)
        let hello = erin.change(.insertText(boxID, after: nil, text: "Hello"))
        let run = OperationID(change: hello.id)
        finn.saw(box)
        finn.saw(hello)
        let world = finn.change(.insertText(boxID, after: .init(run: run, offset: 4), text: " world"))
        let bang = erin.change(.insertText(boxID, after: .init(run: run, offset: 4), text: "!"))
        cases.append(Case(name: "two people typing into one box", changes: [world, box, bang, hello]))

        let trim = finn.change(
            .deleteText(
                boxID,
                [TextRange(run: run, offsets: 0..<1), TextRange(run: OperationID(change: world.id), offsets: 0..<1)]
            )
        )
        let capital = finn.change(.insertText(boxID, after: nil, text: "J"))
        cases.append(Case(name: "text deleted and typed before its box", changes: [capital, trim, world, hello, box]))

        let undoWorld = finn.change(.undo(world.id))
        let undoTrim = finn.change(.undo(trim.id))
        cases.append(Case(name: "typing and deleting undone", changes: [box, hello, world, trim, undoWorld, undoTrim]))
        let redoWorld = finn.change(.redo(world.id))
        cases.append(Case(name: "typing redone", changes: [redoWorld, box, hello, world, undoWorld]))

        let styled = erin.change(
            .set(boxID, .colour(Colour(red: 250, green: 0, blue: 0))),
            .set(boxID, .width(40)),
            .set(boxID, .transform(Transform(a: 0, b: 1, c: -1, d: 0, tx: 5, ty: -5))),
            .set(boxID, .zOrder(3))
        )
        let lines = erin.change(.insertText(boxID, after: .init(run: run, offset: 4), text: "\n😀 é"))
        cases.append(Case(name: "a box restyled and moved, several lines", changes: [hello, styled, box, lines]))

        let ink = erin.change(add(line(3, y: 220)))
        let intoInk = finn.change(
            .insertText(stroke(of: ink), after: nil, text: "no"),
            .deleteText(stroke(of: ink), [TextRange(run: run, offsets: 0..<1)])
        )
        let atBox = finn.change(
            .erase(boxID, [interval(-1, 1)]),
            .appendPoints(boxID, points: [Point(0, 0)], pressures: nil)
        )
        let gone = finn.change(.set(boxID, .deleted(true)))
        cases.append(
            Case(name: "text aimed at ink and ink at a box do nothing", changes: [intoInk, ink, atBox, hello, box])
        )
        cases.append(Case(name: "a box deleted", changes: [box, hello, gone]))

        let wipe = finn.change(.clear)
        let later = finn.change(
            .addText(TextStyle(colour: blue, size: 12), at: Point(0, 240)),
            .insertText(
                StrokeID(change: ChangeID(replica: finn.replica, seq: finn.seq + 1)),
                after: nil,
                text: "after"
            )
        )
        cases.append(Case(name: "a clear hides earlier boxes", changes: [later, wipe, hello, box]))

        var mallory = Author(12)
        let malformed = mallory.change(
            .addText(TextStyle(colour: blue, size: 0), at: Point(0, 0)),
            .addText(TextStyle(colour: blue, size: 12), at: Point(2e9, 0)),
            .insertText(boxID, after: nil, text: ""),
            .insertText(boxID, after: nil, text: String(repeating: "x", count: TextSequence.maximumRunLength + 1)),
            .deleteText(boxID, []),
            .insertText(boxID, after: .init(run: run, offset: 9), text: "past the end")
        )
        cases.append(Case(name: "ignored: malformed text", changes: [malformed, box, hello]))
        return cases
    }

    /// Highlighters beneath everything else whatever their z-order, and fills set, cleared and undone.
    static func brushCases() -> [Case] {
        var cases: [Case] = []
        var iris = Author(16)
        let yellow = Colour(red: 250, green: 220, blue: 0, alpha: 96)
        let marker = StrokeStyle(colour: yellow, width: 18, brush: .highlighter)
        let pen = iris.change(add(line(4, y: 400)))
        let highlight = iris.change(.addStroke(marker, points: line(4, y: 402), pressures: nil))
        let second = iris.change(.addStroke(marker, points: line(3, y: 404), pressures: [0.5, 0.75, 1]))
        let lifted = iris.change(.set(stroke(of: highlight), .zOrder(9)), .set(stroke(of: second), .zOrder(-9)))
        cases.append(
            Case(name: "highlighters beneath ink whatever their z-order", changes: [lifted, second, pen, highlight])
        )

        let box = iris.change(add([Point(0, 420), Point(40, 420), Point(40, 460), Point(0, 460), Point(0, 420)]))
        let filled = iris.change(.set(stroke(of: box), .fill(Colour(red: 0, green: 120, blue: 255, alpha: 64))))
        let cleared = iris.change(.set(stroke(of: box), .fill(Colour(rgba: 0))))
        let undoCleared = iris.change(.undo(cleared.id))
        let cut = iris.change(.erase(stroke(of: box), [interval(1, 2)]))
        cases.append(Case(name: "a fill, cut outline and all", changes: [cut, filled, box]))
        cases.append(Case(name: "a fill cleared", changes: [box, filled, cleared]))
        cases.append(Case(name: "a fill cleared, then undone", changes: [undoCleared, cleared, box, filled]))
        let text = iris.change(.addText(TextStyle(colour: .black, size: 12), at: Point(0, 480)))
        let fillText = iris.change(.set(stroke(of: text), .fill(yellow)))
        cases.append(Case(name: "text takes no fill", changes: [fillText, text]))
        return cases
    }

    /// Images: placed, moved, restacked and deleted like strokes; what an image ignores; what is malformed.
    static func imageCases() -> [Case] {
        var cases: [Case] = []
        var gwen = Author(13)
        var hugo = Author(14)
        let photo = BoardImage(
            blob: (0..<32).map { UInt8($0 * 7 & 0xFF) },
            byteCount: 48_213,
            type: "image/jpeg",
            width: 320,
            height: 240
        )
        let placed = gwen.change(.addImage(photo, at: Point(-40, 300)))
        let id = stroke(of: placed)
        hugo.saw(placed)
        let moved = hugo.change(
            .set(id, .transform(Transform(a: 0.5, b: 0, c: 0, d: 0.5, tx: 12, ty: -8))),
            .set(id, .zOrder(-2)),
            .set(id, .width(10)),
            .set(id, .colour(Colour(red: 1, green: 2, blue: 3)))
        )
        let ink = gwen.change(add(line(4, y: 310)))
        cases.append(
            Case(name: "an image moved below ink; width and colour do not touch it", changes: [moved, ink, placed])
        )

        let aimed = hugo.change(
            .erase(id, [interval(-1, 1)]),
            .appendPoints(id, points: [Point(1, 1)], pressures: nil),
            .insertText(id, after: nil, text: "caption")
        )
        let deleted = hugo.change(.set(id, .deleted(true)))
        cases.append(Case(name: "erases, appends and text aimed at an image do nothing", changes: [aimed, placed]))
        cases.append(Case(name: "an image deleted", changes: [placed, deleted]))

        var bad = photo
        bad.blob.removeLast()
        var script = photo
        script.type = "image/svg+xml"
        var empty = photo
        empty.byteCount = 0
        var flat = photo
        flat.height = 0
        var huge = photo
        huge.width = BoardImage.maximumSide * 2
        let malformed = hugo.change(
            .addImage(bad, at: Point(0, 0)),
            .addImage(script, at: Point(0, 0)),
            .addImage(empty, at: Point(0, 0)),
            .addImage(flat, at: Point(0, 0)),
            .addImage(huge, at: Point(0, 0)),
            .addImage(photo, at: Point(2e9, 0))
        )
        cases.append(Case(name: "ignored: malformed images", changes: [malformed, placed]))
        return cases
    }

    /// 240 changes from three replicas with every operation kind, delivered shuffled with duplicates.
    static func randomSession(seed: UInt64) -> [BoardChange] {
        var generator = SplitMix64(seed: seed)
        var model = BoardModel()
        var authors = [Author(4), Author(5), Author(6)]
        var changes: [BoardChange] = []
        for step in 0..<240 {
            let index = step % 3
            let position = OpStamp(
                stamp: .zero,
                change: ChangeID(replica: authors[index].replica, seq: authors[index].seq + 1)
            )
            var edit = model.randomOperation(at: position, using: &generator)
            // Keep the numbers short in the file: quarter-pixel points, eighth-step intervals.
            edit.operations = edit.operations.map(Self.rounded)
            let change = authors[index].change(edit.operations)
            model.apply(change)
            changes.append(change)
        }
        return (changes + changes.prefix(20)).shuffled(using: &generator)
    }

    static func rounded(_ operation: BoardOperation) -> BoardOperation {
        func round(_ points: [Point]) -> [Point] {
            points.map { Point(($0.x * 4).rounded() / 4, ($0.y * 4).rounded() / 4) }
        }
        func round(_ pressures: [Float]?) -> [Float]? { pressures?.map { ($0 * 8).rounded() / 8 } }
        switch operation {
        case .addStroke(let style, let points, let pressures):
            return .addStroke(
                StrokeStyle(colour: style.colour, width: (style.width * 4).rounded() / 4 + 0.25, brush: style.brush),
                points: round(points),
                pressures: round(pressures)
            )
        case .appendPoints(let id, let points, let pressures):
            return .appendPoints(id, points: round(points), pressures: round(pressures))
        case .erase(let id, let intervals):
            return .erase(id, intervals.map { interval(($0.lower * 8).rounded() / 8, ($0.upper * 8).rounded() / 8) })
        case .set(let id, .width(let width)):
            return .set(id, .width((width * 4).rounded() / 4))
        default:
            return operation
        }
    }

    @Test func boardVectorsAreCurrent() throws {
        let cases = Self.cases().map { testCase -> [String: Any] in
            let board = BoardState.after(testCase.changes)
            return [
                "name": testCase.name,
                "changes": testCase.changes.map(VectorJSON.change),
                "expected": [
                    "hash": board.canonicalHash,
                    "encoding": board.canonicalEncoding().map { String(format: "%02x", $0) }.joined(),
                    "strokes": board.drawing.map(VectorJSON.stroke),
                ] as [String: Any],
            ]
        }
        #expect(cases.count >= 20)
        try ConformanceVectorFile(name: "board.json").check([
            "format": "inkwell-board-conformance/1",
            "about": "Each case applies `changes` in the order given to an empty board \"main\"; the result must have "
                + "exactly the `expected` visible strokes (bottom to top), canonical encoding and hash. "
                + "Stamps are {wall, counter}; stroke ids are `<replica hex>-<seq>-<index>`; colours 0xRRGGBBAA.",
            "cases": cases,
        ])
    }
}

/// The JSON form of changes and strokes in the vector files.
enum VectorJSON {
    static func change(_ change: BoardChange) -> [String: Any] {
        [
            "id": id(change.id),
            "stamp": ["wall": change.stamp.wallMilliseconds, "counter": Int(change.stamp.counter)],
            "board": change.payload.board.rawValue,
            "operations": change.payload.operations.map(operation),
        ]
    }

    static func id(_ id: ChangeID) -> [String: Any] { ["replica": id.replica.description, "seq": id.seq] }

    static func points(_ points: [Point]) -> [[Double]] { points.map { [$0.x, $0.y] } }

    static func operation(_ operation: BoardOperation) -> [String: Any] { OperationJSON.operation(operation) }

    static func stroke(_ stroke: DrawingStroke) -> [String: Any] {
        let t = stroke.transform
        var json: [String: Any] = [
            "id": stroke.id.description,
            "colour": stroke.colour.rgba,
            "width": stroke.width,
            "z": stroke.z,
            "transform": [t.a, t.b, t.c, t.d, t.tx, t.ty],
            "points": points(stroke.points),
            "pressures": stroke.pressures.map { $0.map(Double.init) } as Any? ?? NSNull(),
            "pieces": stroke.pieces.map { [$0.lower, $0.upper] },
        ]
        if let text = stroke.text { json["text"] = text }
        if stroke.brush != .pen { json["brush"] = stroke.brush.name }
        if let fill = stroke.fill { json["fill"] = fill.rgba }
        if let image = stroke.image {
            json["image"] = [
                "blob": image.blobHex, "bytes": image.byteCount, "type": image.type, "width": image.width,
                "height": image.height,
            ]
        }
        return json
    }
}
