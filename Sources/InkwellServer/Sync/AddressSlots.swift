import NIOCore
import Synchronization

/// Connections per remote address: a slot is taken when a handshake is accepted and given back when
/// its channel closes, however the connection ends, so one address cannot hold the server's sockets.
final class AddressSlots: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot for `channel`'s remote address, released when the channel closes; false when the
    /// address holds ``limit`` already. A channel with no IP address (a Unix socket) is not counted.
    func take(for channel: any Channel) -> Bool {
        guard let address = channel.remoteAddress?.ipAddress else { return true }
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
