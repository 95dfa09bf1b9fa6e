import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Text boxes on the board: what two people typing into one box keep, undo of typing, the box as an
/// element like a stroke, what a box ignores, and its export. Convergence under every delivery order,
/// duplicates and partitions is `BoardConvergenceTests`' (its random sessions type into boxes too).
@Suite struct TextBoxTests {
    static let blue = Colour(red: 10, green: 20, blue: 200)

    /// A box with "Hello" typed into it by `author`, as two changes.
    static func box(by author: inout Author) -> (box: BoardChange, hello: BoardChange, id: StrokeID) {
        let box = author.change(.addText(TextStyle(colour: blue, size: 20), at: Point(5, 6)))
        let id = StrokeID(change: box.id)
        return (box, author.change(.insertText(id, after: nil, text: "Hello")), id)
    }

    /// Types `text` one character at a time after the visible character `index - 1`, each after the last,
    /// as a page does: one change per character.
    static func type(
        _ text: String,
        into box: StrokeID,
        at index: Int,
        on board: BoardState,
        by author: inout Author
    ) -> [BoardChange] {
        var anchor = index == 0 ? nil : board.characters(of: box)[index - 1].anchor
        return text.unicodeScalars.map { scalar in
            let change = author.change(.insertText(box, after: anchor, text: String(scalar)))
            anchor = TextSequence.Anchor(run: OperationID(change: change.id), offset: 0)
            return change
        }
    }

    @Test func twoPeopleTypingIntoOneBoxBothKeepTheirWordsInEveryOrder() throws {
        var ada = Author(1)
        var bo = Author(2)
        let (box, hello, id) = Self.box(by: &ada)
        let start = BoardState.after([box, hello])
        bo.saw(hello)
        let adas = Self.type(" there", into: id, at: 5, on: start, by: &ada)
        let bos = Self.type(" world", into: id, at: 5, on: start, by: &bo)
        let all = [box, hello] + adas + bos
        var random = SplitMix64(seed: 22)
        var texts: Set<String> = []
        for _ in 0..<50 {
            let delivery = (all + all.prefix(4)).shuffled(using: &random)
            let board = BoardState.after(delivery)
            try board.checkInvariants()
            texts.insert(try #require(board.drawingStroke(id)?.text))
        }
        #expect(texts.count == 1)
        let text = try #require(texts.first)
        #expect(text == "Hello world there" || text == "Hello there world", "\(text)")
    }

    @Test func undoTakesTypedTextAwayAndRedoBringsItBackKeepingOthersTextInPlace() throws {
        var ada = Author(1)
        var bo = Author(2)
        let (box, hello, id) = Self.box(by: &ada)
        bo.saw(hello)
        // Bo types after Ada's "o"; Ada's run is undone, Bo's text keeps its place.
        let world = bo.change(.insertText(id, after: .init(run: OperationID(change: hello.id), offset: 4), text: "!"))
        let undo = ada.change(.undo(hello.id))
        var board = BoardState.after([box, hello, world])
        #expect(board.drawingStroke(id)?.text == "Hello!")
        board.apply(undo)
        #expect(board.drawingStroke(id)?.text == "!")
        board.apply(ada.change(.redo(hello.id)))
        #expect(board.drawingStroke(id)?.text == "Hello!")
        try board.checkInvariants()
    }

    @Test func aBoxIsAnElementLikeAStrokeAndIgnoresWhatIsMeantForInk() throws {
        var ada = Author(1)
        let (box, hello, id) = Self.box(by: &ada)
        let ink = ada.change(add(line(3, y: 50)))
        let aimed = ada.change(
            .erase(id, [ParameterInterval(-1, 1)]),
            .appendPoints(id, points: [Point(1, 1)], pressures: nil),
            .insertText(StrokeID(change: ink.id), after: nil, text: "not in ink"),
            .set(id, .colour(.black)),
            .set(id, .width(30)),
            .set(id, .transform(.translation(10, 0)))
        )
        let board = BoardState.after([aimed, hello, box, ink])
        let drawn = try #require(board.drawingStroke(id))
        #expect(drawn.text == "Hello" && drawn.points == [Point(5, 6)] && drawn.pieces == [ParameterInterval(0, 0)])
        #expect(drawn.colour == .black && drawn.width == 30 && drawn.transform == .translation(10, 0))
        #expect(board.drawingStroke(StrokeID(change: ink.id))?.text == nil)
        #expect(board.characters(of: StrokeID(change: ink.id)).isEmpty)
        let gone = BoardState.after([box, hello, ada.change(.set(id, .deleted(true)))])
        #expect(gone.drawingStroke(id) == nil)
    }

    @Test func aDeletedBoxTakesItsTextWithItWhenCompacted() throws {
        var ada = Author(1)
        let (box, hello, id) = Self.box(by: &ada)
        let trim = ada.change(.deleteText(id, [TextRange(run: OperationID(change: hello.id), offsets: 0..<1)]))
        let delete = ada.change(.set(id, .deleted(true)))
        let settle = ada.change(.settle(through: delete.id.seq, inactive: []))
        let changes = [box, hello, trim, delete, settle]
        let board = BoardState.after(changes)
        let cut = VersionVector([ada.replica: settle.id.seq])
        let inert = Set(board.inertChanges(among: changes, through: cut))
        #expect(inert == [box.id, hello.id, trim.id])
    }

    @Test func restoringDeletesTextTypedSinceAndCopiesABoxThatLostSome() throws {
        var ada = Author(1)
        var restorer = Author(3)
        let (box, hello, id) = Self.box(by: &ada)
        let more = ada.change(.insertText(id, after: .init(run: OperationID(change: hello.id), offset: 4), text: "!"))
        let past = BoardState.after([box, hello])
        var now = BoardState.after([box, hello, more])
        for change in [box, hello, more] { restorer.saw(change) }
        let next = ChangeID(replica: restorer.replica, seq: 1)
        let trimmed = BoardHistory.restore(now, to: past, change: next)
        #expect(trimmed == [.deleteText(id, [TextRange(run: OperationID(change: more.id), offsets: 0..<1)])])
        var restored = now
        restored.apply(restorer.change(trimmed))
        #expect(restored.drawingStroke(id)?.text == "Hello")

        // Text deleted since cannot be undeleted by another: the box comes back as a copy.
        now.apply(ada.change(.deleteText(id, [TextRange(run: OperationID(change: hello.id), offsets: 0..<2)])))
        let copied = BoardHistory.restore(now, to: past, change: ChangeID(replica: restorer.replica, seq: 2))
        #expect(copied.first == .addText(TextStyle(colour: Self.blue, size: 20), at: Point(5, 6)))
        #expect(copied.contains(.set(id, .deleted(true))))
        restored = now
        restored.apply(restorer.change(copied))
        #expect(restored.drawing.map(\.text) == ["Hello"])
    }

    @Test func exportWritesEachLineAsATspanWithItsMarkupEscaped() throws {
        var ada = Author(1)
        let box = ada.change(.addText(TextStyle(colour: Self.blue, size: 20), at: Point(5, 6)))
        let id = StrokeID(change: box.id)
        let text = ada.change(.insertText(id, after: nil, text: "a < b & c\n\nsecond \u{1}line"))
        let empty = ada.change(.addText(TextStyle(colour: Self.blue, size: 20), at: Point(50, 60)))
        let svg = SVGExporter().svg(for: BoardState.after([box, text, empty]))
        let elements = try SVGExportTests.Elements.of(svg)
        #expect(elements.filter { $0.name == "text" }.count == 1, "an empty box exports nothing")
        let spans = elements.filter { $0.name == "tspan" }
        #expect(spans.map { $0.attributes["y"] } == ["26", "76"])
        #expect(svg.contains(">a &lt; b &amp; c</tspan>") && svg.contains(">second line</tspan>"))
        #expect(svg.contains("font-size=\"20\""))
    }
}
