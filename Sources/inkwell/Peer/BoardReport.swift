import Foundation
import InkwellBoard

/// The line `join` and `export` print on exit, and the SVG they write: scripts compare peers by both.
struct BoardReport {
    let room: String
    let board: String
    let state: BoardState

    /// Writes the SVG if asked, then prints "room ROOM board BOARD: N changes, S strokes, hash H".
    func write(svg path: String?) throws {
        if let path {
            try Data(SVGExporter().svg(for: state).utf8).write(to: URL(fileURLWithPath: path))
        }
        print(
            "room \(room) board \(board): \(state.changeCount) changes, \(state.drawing.count) strokes, "
                + "hash \(state.canonicalHash)"
        )
    }
}
