public import Hummingbird
public import NIOCore

/// A request context that knows the address of the client a request came from: the peer's, or behind a
/// trusted proxy the one its forwarding headers name (set by ``ClientAddressMiddleware``).
public protocol ClientAddressRequestContext: RemoteAddressRequestContext {
    /// The client's IP address, which the per-address limits count by; nil on a channel with none.
    var clientAddress: SocketAddress? { get set }
}
