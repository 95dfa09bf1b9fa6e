/// The server's codes this client reacts to (the server's `CloseCode` and `ErrorCode`, and
/// notes/sync-semantics.md); other codes are logged and handled by reconnecting.
enum ServerCodes {
    /// Close code: the server does not speak this client's protocol version. Do not reconnect.
    static let unsupportedVersionClose: UInt16 = 4001
    /// Error frame code of the same refusal, sent just before that close.
    static let unsupportedVersionError: UInt32 = 2
    /// Error frame code: a push was not stored, push it again later.
    static let storageFailedError: UInt32 = 8
}
