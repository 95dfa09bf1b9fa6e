import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

/// Images on the board: an element like a stroke whose bytes travel apart, its copies, and its export.
@Suite struct ImageElementTests {
    static let photo = BoardImage(
        blob: Array(repeating: 0xAB, count: 32),
        byteCount: 5,
        type: "image/png",
        width: 40,
        height: 30
    )

    @Test func anImageIsMovedCopiedAndDeletedLikeAStroke() throws {
        var ada = Author(1)
        let placed = ada.change(.addImage(Self.photo, at: Point(10, 20)))
        let id = StrokeID(change: placed.id)
        var board = BoardState.after([placed, ada.change(.set(id, .transform(.translation(5, 5))))])
        let drawn = try #require(board.drawingStroke(id))
        #expect(drawn.image == Self.photo && drawn.text == nil && drawn.width == 40)
        #expect(drawn.bounds == Rect(minX: 15, minY: 25, maxX: 55, maxY: 55))
        let copy = SelectionEdits.copies(of: [drawn], dx: 8, dy: 0, change: ChangeID(replica: ada.replica, seq: 3))
        #expect(
            copy == [
                .addImage(Self.photo, at: Point(10, 20)),
                .set(StrokeID(change: ChangeID(replica: ada.replica, seq: 3)), .transform(.translation(13, 5))),
            ]
        )
        board.apply(ada.change(copy))
        #expect(board.drawing.compactMap(\.image) == [Self.photo, Self.photo])
        board.apply(ada.change(.set(id, .deleted(true))))
        #expect(board.drawing.count == 1)
        try board.checkInvariants()
    }

    @Test func exportEmbedsTheBytesAtHandAndMarksTheRest() throws {
        var ada = Author(1)
        let board = BoardState.after([ada.change(.addImage(Self.photo, at: Point(10, 20)))])
        let embedded = SVGExporter().svg(for: board) { _ in [1, 2, 3, 4, 5] }
        #expect(
            embedded.contains("<image data-stroke=") && embedded.contains("href=\"data:image/png;base64,AQIDBAU=\"")
        )
        #expect(embedded.contains("x=\"10\" y=\"20\" width=\"40\" height=\"30\""))
        let missing = SVGExporter().svg(for: board)
        #expect(missing.contains("data-blob=\"\(String(repeating: "ab", count: 32))\"") && !missing.contains("<image"))
        _ = try SVGExportTests.Elements.of(embedded)
    }

    @Test func theInteropProtocolNeverHearsOfImagesOrText() throws {
        var ada = Author(1)
        let placed = ada.change(
            .addImage(Self.photo, at: Point(10, 20)),
            .addText(TextStyle(colour: .black, size: 12), at: Point(0, 0))
        )
        let board = BoardState.after([placed])
        let session = InteropSession(replica: ReplicaID(high: 9, low: 9), board: "main")
        #expect(session.messages(for: placed, in: board).isEmpty)
        let delete = ada.change(.set(StrokeID(change: placed.id), .deleted(true)))
        #expect(session.messages(for: delete, in: BoardState.after([placed, delete])).isEmpty)
    }
}
