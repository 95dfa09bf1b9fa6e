import Foundation
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// A connection's pushes waiting for their commit are bounded (``ServerLimits/maximumPushesInFlight``,
/// 64 by default): past it the server stops reading the connection until a commit makes room. With each
/// commit lingering 300 ms for company, a bound of 4 shows as acks in bursts of at most 4, 300 ms apart;
/// without it, pushes sent at once share one commit.
@Suite struct PushesInFlightTests {
    static let linger = Duration.milliseconds(300)

    /// Sends `count` pushes in one go and returns when each ack came, in the order of the pushes.
    static func ackTimes(limit: Int, count: Int) async throws -> [Duration] {
        var limits = ServerLimits()
        limits.maximumPushesInFlight = limit
        let server = try await RunningServer.start(limits: limits) { $0.commitLinger = linger }
        let peer = try await server.peer()
        try await peer.subscribe("room")
        var random = SeededGenerator(seed: 5)
        let packs = (0..<count).map { _ in TestPacks.make(room: "room", using: &random) }
        let start = ContinuousClock.now
        for pack in packs { try await peer.send(.push(room: "room", pack: pack.bytes)) }
        var times: [Duration] = []
        for (index, pack) in packs.enumerated() {
            let ack = try await peer.next(where: \.isAck)
            #expect(ack == .ack(room: "room", pack: pack.id, serverSeq: UInt64(index + 1)), "acks in order")
            times.append(ContinuousClock.now - start)
        }
        #expect(try await server.stored(room: "room").count == count)
        await server.stop()
        return times
    }

    /// The most acks that came within `window` of each other.
    static func largestBurst(_ times: [Duration], window: Duration = .milliseconds(150)) -> Int {
        times.indices.map { first in times[first...].prefix { $0 - times[first] < window }.count }.max() ?? 0
    }

    @Test func aConnectionHasAtMostTheLimitOfPushesWaitingForACommit() async throws {
        let times = try await Self.ackTimes(limit: 4, count: 12)
        #expect(Self.largestBurst(times) <= 4, "acks at \(times)")
        #expect(times.last! >= Self.linger * 3, "three commits, one after another: \(times)")
    }

    @Test func pushesUnderTheLimitShareACommit() async throws {
        let times = try await Self.ackTimes(limit: ServerLimits().maximumPushesInFlight, count: 12)
        #expect(ServerLimits().maximumPushesInFlight == 64)
        #expect(Self.largestBurst(times) > 4, "acks at \(times)")
    }
}
