import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellWire

/// W4's durable path: a new device's whole path from the first byte of its catch-up to every stroke
/// ready, as `SyncClient` and `Replica` take a catch-up frame. ``PackIntake`` verifies each pack's
/// signature and authorship, inflates and decodes it, and appends every change to the device's SQLite
/// store in one transaction, made durable (fsync) before it returns; the open board then takes the changes
/// stored, as a live document takes a batch.
final class W4DurableDevice {
    let folder: URL
    let store: Store

    /// A new device with an empty store, open before its first sync as an app's is.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-w4-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try Store(path: folder.appendingPathComponent("device.sqlite").path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Takes `packs` as one catch-up frame (a server's frame holds up to 4 MiB) into the store, and
    /// returns the board they make.
    func take(_ packs: [[UInt8]], room: String, board: BoardID) throws -> BoardState {
        let intake = PackIntake(store: store, clock: SystemWallClock())
        let frame = packs.enumerated().map { StoredPack(serverSeq: UInt64($0.offset + 1), bytes: $0.element) }
        let result = try intake.ingest(room: room, packs: frame, logger: W5Corpus.logger)
        precondition(result.forged == 0 && result.rejected == 0 && result.setAside == 0, "W4: packs refused")
        var state = BoardState(board: board)
        _ = state.apply(contentsOf: result.inserted.compactMap { $0.change.decoded(as: BoardEdit.self) })
        return state
    }
}
