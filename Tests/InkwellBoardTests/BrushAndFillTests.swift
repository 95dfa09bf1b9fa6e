import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

/// Highlighters beneath everything else, and fills: the selection edit that sets them and their export.
@Suite struct BrushAndFillTests {
    static let square = [Point(0, 0), Point(40, 0), Point(40, 40), Point(0, 40), Point(0, 0)]

    @Test func bringingAHighlighterToTheFrontLiftsItAboveHighlightersOnly() throws {
        var ada = Author(1)
        let marker = StrokeStyle(
            colour: Colour(red: 255, green: 220, blue: 0, alpha: 100),
            width: 16,
            brush: .highlighter
        )
        let ink = ada.change(add(line(4)))
        let first = ada.change(.addStroke(marker, points: line(4, y: 2), pressures: nil))
        let second = ada.change(.addStroke(marker, points: line(4, y: 4), pressures: nil))
        var board = BoardState.after([ink, first, second])
        #expect(board.drawing.map(\.id) == [stroke(of: first), stroke(of: second), stroke(of: ink)])
        let lift = SelectionEdits.bringToFront([stroke(of: first)], in: Array(board.drawing))
        board.apply(ada.change(lift))
        #expect(board.drawing.map(\.id) == [stroke(of: second), stroke(of: first), stroke(of: ink)])
        try board.checkInvariants()
    }

    @Test func fillingASelectionFillsInkOnlyAndAClearColourTakesItAway() throws {
        var ada = Author(1)
        let box = ada.change(add(Self.square))
        let text = ada.change(.addText(TextStyle(colour: .black, size: 12), at: Point(0, 50)))
        let blue = Colour(red: 0, green: 100, blue: 255, alpha: 80)
        var board = BoardState.after([box, text])
        let fill = SelectionEdits.fill(Array(board.drawing), with: blue)
        #expect(fill == [.set(stroke(of: box), .fill(blue))])
        board.apply(ada.change(fill))
        #expect(board.drawingStroke(stroke(of: box))?.fill == blue)
        #expect(SelectionEdits.fill(Array(board.drawing), with: blue).isEmpty, "already filled")
        let clear = SelectionEdits.fill(Array(board.drawing), with: Colour(rgba: 0))
        board.apply(ada.change(clear))
        #expect(board.drawingStroke(stroke(of: box))?.fill == nil)
    }

    @Test func exportPaintsTheWholeOutlineBeneathTheInkWhateverIsErased() throws {
        var ada = Author(1)
        let box = ada.change(add(Self.square))
        let filled = ada.change(
            .set(stroke(of: box), .fill(Colour(red: 0, green: 100, blue: 255, alpha: 255))),
            .erase(stroke(of: box), [interval(1, 2)])
        )
        let svg = SVGExporter().svg(for: BoardState.after([box, filled]))
        let fill = try #require(svg.range(of: "fill=\"#0064ff\""))
        let ink = try #require(svg.range(of: "stroke-width="))
        #expect(fill.lowerBound < ink.lowerBound, "the paint comes first, beneath the line")
        #expect(svg.contains("Z\" fill="))
        _ = try SVGExportTests.Elements.of(svg)
    }
}
