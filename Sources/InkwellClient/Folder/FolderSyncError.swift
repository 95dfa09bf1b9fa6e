#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the shared-folder transport could not go on. Safe to log: paths and system errors, never content.
public enum FolderSyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file-system call failed.
    case io(String, path: String, code: Int32)
    /// This replica's own file holds what it did not write: another replica's header, another room's,
    /// or bytes that are not a folder file. It is left as it is; nothing is appended to it.
    case foreignOwnFile(path: String, reason: String)
    /// The room is not joined.
    case notJoined(String)
    /// Stopped before it was synced.
    case stopped
    /// ``FolderSync/waitUntilSynced(timeout:)`` ran out of time.
    case timedOut

    static func io(_ call: String, path: String) -> FolderSyncError { .io(call, path: path, code: errno) }

    public var description: String {
        switch self {
        case .io(let call, let path, let code): "\(call) \(path): \(String(cString: strerror(code)))"
        case .foreignOwnFile(let path, let reason): "\(path) is not this replica's folder file: \(reason)"
        case .notJoined(let room): "room \(room) is not joined to the folder"
        case .stopped: "the folder sync stopped"
        case .timedOut: "not synced with the folder in time"
        }
    }
}
