import Foundation
import InkwellBoard

/// The line `join` and `export` print on exit, and the SVG they write: scripts compare peers by both.
struct BoardReport {
    let room: String
    let board: String
    let state: BoardState
    /// The images' bytes, embedded in the SVG where at hand.
    var images = BoardImages()

    /// Writes the SVG if asked, then prints "room ROOM board BOARD: N changes, S strokes, hash H".
    func write(svg path: String?) throws {
        if let path {
            let svg = SVGExporter().svg(for: state, imageBytes: images.bytes(of:))
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        }
        print(
            "room \(room) board \(board): \(state.changeCount) changes, \(state.drawing.count) strokes, "
                + "hash \(state.canonicalHash)"
        )
    }
}
