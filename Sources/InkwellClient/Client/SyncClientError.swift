/// Why the sync client stopped or refused a request. Safe to log: descriptions name codes and limits,
/// never change content; the one message quoted is the server's own.
public struct SyncClientError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unsupportedVersion(String)
        case invalidRoom
        case notJoined
        case presenceForAnotherDevice
        case alreadyRunning
        case stopped
        case timedOut
        case malformedFrame(String)
        case closeTimedOut
        case viewOnly
        case refused(String)
        case notAdmin
        case noServer
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The server does not speak this client's protocol version (close code 4001). Reconnecting cannot help:
    /// the app needs an update. The message is the server's, in plain words for the user.
    public static func unsupportedVersion(_ message: String) -> SyncClientError {
        SyncClientError(.unsupportedVersion(message))
    }

    /// A room name the protocol cannot carry: 1–128 of `A–Z a–z 0–9 . _ -`.
    public static let invalidRoom = SyncClientError(.invalidRoom)
    /// Presence for a room this client has not joined.
    public static let notJoined = SyncClientError(.notJoined)
    /// Presence must be sent as this device (``SyncClient/device``): the server closes the connection otherwise.
    public static let presenceForAnotherDevice = SyncClientError(.presenceForAnotherDevice)
    /// `run()` was called while it was already running.
    public static let alreadyRunning = SyncClientError(.alreadyRunning)
    /// The client was stopped.
    public static let stopped = SyncClientError(.stopped)
    /// The state waited for did not come in time.
    public static let timedOut = SyncClientError(.timedOut)
    /// The server sent a frame that does not decode; the connection is dropped and opened again.
    static func malformedFrame(_ reason: String) -> SyncClientError { SyncClientError(.malformedFrame(reason)) }
    /// The server did not answer a close in time.
    static let closeTimedOut = SyncClientError(.closeTimedOut)
    /// An edit or presence in a room this device holds only a view link for.
    public static let viewOnly = SyncClientError(.viewOnly)
    /// The server refused a request for a room; the message is the server's.
    public static func refused(_ message: String) -> SyncClientError { SyncClientError(.refused(message)) }
    /// Rotating a room's links needs its admin capability, which only the device that made it holds.
    public static let notAdmin = SyncClientError(.notAdmin)
    /// A client was given an empty list of servers.
    public static let noServer = SyncClientError(.noServer)

    /// The server's message, when it refused the protocol version.
    public var unsupportedVersionMessage: String? {
        if case .unsupportedVersion(let message) = code { message } else { nil }
    }

    public var description: String {
        switch code {
        case .unsupportedVersion(let message): "the app and the server speak no common protocol version: \(message)"
        case .invalidRoom: "room names are 1 to 128 of A-Z a-z 0-9 . _ -"
        case .notJoined: "presence can only be sent to a joined room"
        case .presenceForAnotherDevice: "presence must be sent as this device"
        case .alreadyRunning: "the sync client is already running"
        case .stopped: "the sync client was stopped"
        case .timedOut: "timed out"
        case .malformedFrame(let reason): "the server sent a frame that does not decode: \(reason)"
        case .closeTimedOut: "the server did not answer the close in time"
        case .viewOnly: "this device holds only a view link for the room"
        case .refused(let message): "the server refused: \(message)"
        case .notAdmin: "only the device that made the board holds its admin capability"
        case .noServer: "a sync client needs at least one server"
        }
    }
}
