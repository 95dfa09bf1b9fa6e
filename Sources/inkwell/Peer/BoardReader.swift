import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync

/// A board as a local store holds it, rebuilt from its changes.
enum BoardReader {
    static func state(of store: Store, room: String, board: String) throws -> (state: BoardState, changes: Int) {
        var state = BoardState(board: BoardID(board))
        let stored = try store.changes(room: room, document: board)
        // Changes of another type, or of a newer schema, stay stored for a version that reads them.
        _ = state.apply(contentsOf: try stored.compactMap { try $0.decoded().decoded(as: BoardEdit.self) })
        return (state, stored.count)
    }
}
