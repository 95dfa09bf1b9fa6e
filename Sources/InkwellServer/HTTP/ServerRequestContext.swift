public import Hummingbird
public import NIOCore

/// The context of every HTTP request the server answers: Hummingbird's basics, the peer's address, and the
/// client's, which the blob routes count uploads by (``UploadRates``).
public struct ServerRequestContext: ClientAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address: its IP address and port, or nil on a channel with none.
    public let remoteAddress: SocketAddress?
    /// The peer's address until ``ClientAddressMiddleware`` has read the request's forwarding headers.
    public var clientAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        clientAddress = remoteAddress
    }
}
