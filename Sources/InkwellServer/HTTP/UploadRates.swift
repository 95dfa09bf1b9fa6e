import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Blob bytes uploaded per remote address: a token bucket each (``RateLimiter``), `rate` bytes per second
/// sustained and `burst` at once, so one address cannot fill the server's disk or take its bandwidth.
///
/// The table holds at most `capacity` addresses. When it is full, addresses idle long enough for their
/// bucket to be full again are forgotten first (they lose nothing: a new bucket is full too); if that is
/// not enough to free a quarter of it, those used longest ago. An IPv6 address counts by its /64, the block one subscriber
/// usually holds, and an IPv4 address mapped into IPv6 as that IPv4 address.
final class UploadRates: Sendable {
    let rate: Double
    let burst: Double
    let capacity: Int
    private let table = Mutex<[String: Entry]>([:])

    private struct Entry {
        var bucket: RateLimiter
        var lastUse: ContinuousClock.Instant
    }

    init(rate: Double, burst: Double, capacity: Int = 16_384) {
        self.rate = max(rate, 1)
        self.burst = max(burst, 1)
        self.capacity = max(capacity, 1)
    }

    /// Takes `bytes` from `address`'s bucket: nil when they were there, otherwise how long to wait before
    /// that many are sure to be (nothing is taken then). An upload with no address (a Unix socket) is not
    /// counted.
    func take(_ bytes: Int, for address: String?, now: ContinuousClock.Instant = .now) -> Duration? {
        guard let address else { return nil }
        let count = Double(bytes)
        let taken = table.withLock { table in
            if table[address] == nil, table.count >= capacity { evict(from: &table, now: now) }
            var entry = table[address] ?? Entry(bucket: RateLimiter(rate: rate, burst: burst, now: now), lastUse: now)
            let taken = entry.bucket.take(count, now: now)
            entry.lastUse = max(entry.lastUse, now)
            table[address] = entry
            return taken
        }
        return taken ? nil : .seconds(min(count, burst) / rate)
    }

    /// Addresses with a bucket now.
    var count: Int { table.withLock { $0.count } }

    /// The key an upload from `address` is counted under, or nil for one with no IP address.
    static func key(for address: SocketAddress?) -> String? {
        guard let address, let text = address.ipAddress else { return nil }
        guard case .v6 = address else { return text }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &bytes) == 1 else { return text }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }

    /// Makes room for more addresses: drops those whose bucket has refilled, then, until a quarter of the
    /// table is free, those used longest ago; so a table full of busy addresses is not sorted at every new one.
    private func evict(from table: inout [String: Entry], now: ContinuousClock.Instant) {
        let refill = Duration.seconds(burst / rate)
        table = table.filter { now - $0.value.lastUse < refill }
        let target = capacity - max(capacity / 4, 1)
        guard table.count > target else { return }
        let oldest = table.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(table.count - target)
        for (address, _) in oldest { table[address] = nil }
    }
}
