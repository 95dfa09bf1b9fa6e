import NIOCore
import Testing

@testable import InkwellServer

/// Blob upload bytes per address: a token bucket each, in a table that many addresses cannot grow past its
/// bound.
@Suite struct UploadRatesTests {
    static let start = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    @Test func anAddressTakesItsBurstThenWaitsForTheRate() {
        let rates = UploadRates(rate: 1_000, burst: 10_000)
        #expect(rates.take(6_000, for: "192.0.2.1", now: Self.at(0)) == nil)
        // 4,000 are left: 5,000 more are sure to be there in 5 s; nothing is taken meanwhile.
        #expect(rates.take(5_000, for: "192.0.2.1", now: Self.at(0)) == .seconds(5))
        #expect(rates.take(4_000, for: "192.0.2.1", now: Self.at(0)) == nil)
        #expect(rates.take(1_000, for: "192.0.2.1", now: Self.at(0.5)) != nil)
        #expect(rates.take(1_000, for: "192.0.2.1", now: Self.at(1)) == nil)
        // Another address has a bucket of its own; a channel with no IP address is not counted.
        #expect(rates.take(10_000, for: "192.0.2.2", now: Self.at(1)) == nil)
        #expect(rates.take(1 << 30, for: nil, now: Self.at(1)) == nil)
        #expect(rates.count == 2)
    }

    @Test func manyAddressesCannotGrowTheTablePastItsBound() {
        let rates = UploadRates(rate: 1_000, burst: 10_000, capacity: 100)
        for index in 0..<10_000 {
            let address = "10.\(index >> 16).\((index >> 8) & 0xff).\(index & 0xff)"
            _ = rates.take(10_000, for: address, now: Self.at(Double(index) / 1_000))
            #expect(rates.count <= 100)
        }
    }

    /// Forgetting an idle address loses nothing (its bucket had refilled), so those go first; a busy
    /// address is forgotten only when the table is full of busy ones.
    @Test func aFullTableForgetsIdleAddressesBeforeABusyOne() {
        let rates = UploadRates(rate: 1_000, burst: 10_000, capacity: 4)
        #expect(rates.take(10_000, for: "busy", now: Self.at(0)) == nil)
        for index in 0..<3 { #expect(rates.take(1, for: "idle\(index)", now: Self.at(0)) == nil) }
        // Ten seconds later the idle buckets are full again; the busy one has spent itself once more.
        #expect(rates.take(10_000, for: "busy", now: Self.at(10)) == nil)
        #expect(rates.take(1, for: "newcomer", now: Self.at(10)) == nil)
        #expect(rates.count == 2)
        #expect(rates.take(5_000, for: "busy", now: Self.at(10)) == .seconds(5), "the busy address was kept")
    }

    @Test func addressesAreCountedByIPv4AndByIPv6Block() throws {
        #expect(UploadRates.key(for: try SocketAddress(ipAddress: "192.0.2.7", port: 1)) == "192.0.2.7")
        let first = UploadRates.key(for: try SocketAddress(ipAddress: "2001:db8:aa:bb:1:2:3:4", port: 1))
        let second = UploadRates.key(for: try SocketAddress(ipAddress: "2001:db8:aa:bb:ffff::9", port: 2))
        #expect(first == "2001:db8:aa:bb::/64" && second == first, "one subscriber's /64 is one address")
        #expect(UploadRates.key(for: try SocketAddress(ipAddress: "2001:db8:aa:bc::1", port: 1)) != first)
        // An IPv4 client of a dual-stack socket is its IPv4 address, not the block every such client shares.
        #expect(UploadRates.key(for: try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == "192.0.2.7")
        #expect(UploadRates.key(for: try SocketAddress(unixDomainSocketPath: "/tmp/inkwell.sock")) == nil)
        #expect(UploadRates.key(for: nil) == nil)
    }
}
