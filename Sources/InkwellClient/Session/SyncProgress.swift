/// What an honest sync indicator shows: whether this device is in step with the server, and how much is
/// left to move each way.
public struct SyncProgress: Hashable, Sendable, CustomStringConvertible {
    public enum State: Hashable, Sendable {
        /// Not connected: edits are kept and wait in the outbox.
        case offline
        /// Opening a connection, until the server has welcomed it.
        case connecting
        /// Connected, with packs still to receive or changes still to upload.
        case syncing
        /// Connected, every joined room caught up with the server, and nothing waiting to upload.
        case synced
        /// Connected, with sending or receiving of some documents paused by the app: what they hold
        /// waits, on disk, until it resumes.
        case paused
    }

    public var state: State
    /// The payload bytes of the changes waiting in the outbox.
    public var bytesToUpload: Int
    /// The pack bytes the server said each joined room is behind, less those received since, summed (at
    /// most `UInt64.max`).
    public var bytesToDownload: UInt64

    public init(state: State, bytesToUpload: Int, bytesToDownload: UInt64) {
        self.state = state
        self.bytesToUpload = bytesToUpload
        self.bytesToDownload = bytesToDownload
    }

    public static let offline = SyncProgress(state: .offline, bytesToUpload: 0, bytesToDownload: 0)

    public var description: String { "\(state), \(bytesToUpload) bytes to upload, \(bytesToDownload) to download" }
}
