/// Why a blob could not be uploaded or downloaded. Safe to log: descriptions give statuses, sizes and the
/// server's own words, never the blob's bytes or the room's capability.
public struct BlobError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case refused
            case rateLimited
            case serverFailed
            case hashMismatch
            case tooLarge
            case cannotOpen
            case unreachable
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The server refused the request (``BlobError/status`` says how: 401, 403, 404, 413, …); asking
        /// again the same way gets the same answer.
        public static let refused = Code(.refused)
        /// Too many blob bytes from this address: try again after ``BlobError/retryAfter``.
        public static let rateLimited = Code(.rateLimited)
        /// The server failed (5xx) or answered what a blob route never answers.
        public static let serverFailed = Code(.serverFailed)
        /// The downloaded bytes do not hash to the blob's name: the server or the network changed them.
        public static let hashMismatch = Code(.hashMismatch)
        /// The server's answer ran past the client's limit and was cut off.
        public static let tooLarge = Code(.tooLarge)
        /// The blob does not open with the room's key: sealed with another key or for another room, or altered.
        public static let cannotOpen = Code(.cannotOpen)
        /// The server could not be reached, or the connection failed before its answer was whole.
        public static let unreachable = Code(.unreachable)

        public var description: String {
            switch base {
            case .refused: "refused"
            case .rateLimited: "rateLimited"
            case .serverFailed: "serverFailed"
            case .hashMismatch: "hashMismatch"
            case .tooLarge: "tooLarge"
            case .cannotOpen: "cannotOpen"
            case .unreachable: "unreachable"
            }
        }
    }

    public let code: Code
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// How long the server asked to wait, for ``Code/rateLimited``.
    public let retryAfter: Duration?
    /// Plain words: the server's, when it gave some.
    public let message: String

    init(_ code: Code, status: Int? = nil, retryAfter: Duration? = nil, _ message: String) {
        self.code = code
        self.status = status
        self.retryAfter = retryAfter
        self.message = message
    }

    public var description: String {
        status.map { "\(message) (HTTP \($0))" } ?? message
    }
}
