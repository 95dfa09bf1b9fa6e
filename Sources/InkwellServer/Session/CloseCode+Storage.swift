extension CloseCode {
    /// The server could not read what the connection asked for: its storage failed. The client reconnects
    /// after its backoff and asks again.
    public static let internalError = CloseCode(rawValue: 1011)
}
