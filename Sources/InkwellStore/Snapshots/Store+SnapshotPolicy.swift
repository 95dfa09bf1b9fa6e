import InkwellBoard
import InkwellSync
import InkwellWire

extension Store {
    /// Writes a new snapshot of a board when enough of its changes lie outside the latest one, so
    /// that cold opens stay short. Returns whether it wrote one.
    ///
    /// A snapshot's cut is the room's contiguous frontier when it was taken: every change of the board
    /// inside that cut is in the snapshot. That holds because a replica's timeline is contiguous
    /// within a room (a device writes each room under its own replica id), so the frontier has no
    /// holes. Changes past the frontier stay in the tail until the gap before them fills.
    ///
    /// - Complexity: O(changes of the board outside the snapshot), plus rewriting the snapshot.
    @discardableResult
    public func snapshotIfNeeded(room: String, board: String, tailThreshold: Int = 1_000) throws -> Bool {
        let contents = try coldOpen(room: room, board: board)
        let frontier = try frontier(room: room)
        let absorbed = contents.tail.filter { frontier.vector.contains($0.id) }
        guard absorbed.count >= max(tailThreshold, 1) else { return false }
        let previous =
            try contents.snapshot.map { try BoardSnapshot(decoding: $0.bytes) }
            ?? BoardSnapshot(room: room, board: BoardID(board), cut: Cut(), changes: [])
        let next = previous.extended(with: absorbed.map(\.payload), to: frontier)
        try writeSnapshot(
            StoredSnapshot(
                room: room,
                board: board,
                cut: next.cut,
                schemaVersion: BoardSnapshot.schemaVersion,
                bytes: next.encoded()
            )
        )
        return true
    }
}

/// Keeps snapshots fresh in the background: after each commit, boards whose tail has grown past the
/// threshold get a new snapshot, away from the path of the edit that grew them.
public struct SnapshotWriter: Sendable {
    public let store: Store
    public let tailThreshold: Int

    public init(store: Store, tailThreshold: Int = 1_000) {
        self.store = store
        self.tailThreshold = tailThreshold
    }

    /// Runs until the task is cancelled. A failed snapshot loses nothing (the changes stay stored)
    /// and is reported to `failed`, then tried again after the next commit to that board.
    public func run(failed: @Sendable (BoardKey, any Error) -> Void = { _, _ in }) async {
        // Reading a board's tail costs O(tail): look again only after a tenth of the threshold of commits.
        let checkEvery = max(tailThreshold / 10, 1)
        var commitsSinceCheck: [BoardKey: Int] = [:]
        for await notification in store.notifications() {
            for board in notification.boards.sorted(by: { ($0.room, $0.board) < ($1.room, $1.board) }) {
                commitsSinceCheck[board, default: 0] += 1
                guard commitsSinceCheck[board]! >= checkEvery else { continue }
                commitsSinceCheck[board] = 0
                do {
                    try store.snapshotIfNeeded(room: board.room, board: board.board, tailThreshold: tailThreshold)
                } catch {
                    failed(board, error)
                }
            }
        }
    }
}
