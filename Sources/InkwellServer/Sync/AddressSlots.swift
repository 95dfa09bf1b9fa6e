import NIOCore
import Synchronization

/// Connections per client address: a slot is taken when a handshake is accepted and given back when
/// its channel closes, however the connection ends, so one address cannot hold the server's sockets.
/// Behind a trusted proxy the address is the client's its headers name (``TrustedProxies``), not the proxy's.
final class AddressSlots: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot for `client`, released when `channel` closes; false when the address holds ``limit``
    /// already. A client with no IP address (over a Unix socket) is not counted.
    func take(_ client: SocketAddress?, closing channel: any Channel) -> Bool {
        guard let address = client?.ipAddress else { return true }
        let taken = counts.withLock { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
        guard taken else { return false }
        channel.closeFuture.whenComplete { [self] _ in release(address) }
        return true
    }

    /// Connections open from `address` now.
    func count(of address: String) -> Int { counts.withLock { $0[address, default: 0] } }

    private func release(_ address: String) {
        counts.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }
}
