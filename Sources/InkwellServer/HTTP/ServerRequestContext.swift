public import Hummingbird
public import NIOCore

/// The context of every HTTP request the server answers: Hummingbird's basics and the address the request
/// came from, which the blob routes count uploads by (``UploadRates``).
public struct ServerRequestContext: RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address: its IP address and port, or nil on a channel with none.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
