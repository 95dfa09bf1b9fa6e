package import HTTPTypes
package import NIOCore

/// The proxies (`--trusted-proxy`) whose forwarding headers name the client a request came from.
///
/// Behind a reverse proxy every connection comes from the proxy's address, so the limits per address would
/// count all its clients together. A request whose peer is one of these proxies is counted under the client
/// its headers name instead; any other peer's headers are the client's own words and are ignored.
package struct TrustedProxies: Sendable {
    package let blocks: [AddressBlock]

    /// None: every request is counted under its peer's address.
    package init() {
        blocks = []
    }

    /// Reads each of `texts` as an IP address or block (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
    ///
    /// - Throws: ``ServerConfigurationError/trustedProxy(_:correction:)`` for the first that is neither.
    package init(_ texts: [String]) throws(ServerConfigurationError) {
        var blocks: [AddressBlock] = []
        for text in texts { blocks.append(try AddressBlock(text)) }
        self.blocks = blocks
    }

    /// Whether `address` is one of the proxies.
    package func contains(_ address: IPAddress) -> Bool {
        blocks.contains { $0.contains(address) }
    }

    /// The address of the client that sent a request with `headers` over a connection from `peer`.
    ///
    /// From a trusted peer, each forwarding header present (`Forwarded`'s `for=` and `X-Forwarded-For`) is
    /// walked from its right, the proxy nearest the server, and names the first address that is not itself a
    /// trusted proxy (the leftmost, if all are). A hop with no address on the way (`unknown`, an obfuscated
    /// identifier, garbage), or headers that name different clients, leave the peer's address: the proxy is
    /// trusted to write the header it writes, and the server cannot tell which one that is, so a client's own
    /// `Forwarded` passed through a proxy that appends to `X-Forwarded-For` must not win.
    ///
    /// - Complexity: O(*n*) in the size of the headers, times the number of proxies given.
    package func client(of peer: SocketAddress?, headers: HTTPFields) -> SocketAddress? {
        guard let address = IPAddress(peer), contains(address) else { return peer }
        let forwarded = headers[values: .forwarded]
        let forwardedFor = headers[values: .xForwardedFor]
        var named: [IPAddress] = []
        if !forwarded.isEmpty {
            guard let client = origin(of: ForwardedElements.hops(forwarded)) else { return peer }
            named.append(client)
        }
        if !forwardedFor.isEmpty {
            guard let client = origin(of: ForwardedHop.xForwardedFor(forwardedFor)) else { return peer }
            named.append(client)
        }
        guard let client = named.first, named.allSatisfy({ $0 == client }) else { return peer }
        return client.socketAddress ?? peer
    }

    /// The first hop from the right whose address is no trusted proxy, or the leftmost when all are; nil when
    /// a hop with no address comes first, or there is none.
    private func origin(of hops: [ForwardedHop]) -> IPAddress? {
        var leftmost: IPAddress?
        for hop in hops.reversed() {
            guard case .address(let address) = hop else { return nil }
            if !contains(address) { return address }
            leftmost = address
        }
        return leftmost
    }
}

extension HTTPField.Name {
    /// RFC 7239.
    static let forwarded = Self("Forwarded")!
    /// The de facto header most proxies append to.
    static let xForwardedFor = Self("X-Forwarded-For")!
}
