import InkwellBoard
import InkwellClient
import InkwellStore

/// A board as a local store holds it, rebuilt from its changes.
enum BoardReader {
    static func state(of store: Store, room: String, board: String) throws -> (state: BoardState, changes: Int) {
        var state = BoardState(board: BoardID(board))
        let stored = try store.changes(room: room, board: board)
        _ = state.apply(contentsOf: try stored.map { try $0.boardChange() })
        return (state, stored.count)
    }
}
