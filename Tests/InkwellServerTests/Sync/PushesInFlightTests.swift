import Foundation
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// A connection's pushes waiting for their commit are bounded (``ServerLimits/maximumPushesInFlight``,
/// 64 by default): past it the server stops reading the connection until a commit makes room. With each
/// commit lingering 300 ms for company, a bound of 4 shows as commits of at most 4 packs, read from the
/// server's `inkwell_commit_batch_packs` histogram; without it, pushes sent at once share a commit.
@Suite struct PushesInFlightTests {
    static let linger = Duration.milliseconds(300)

    /// How the server's commits went: how many, and how many held at most 4 packs.
    struct Commits {
        var total = 0
        var atMostFour = 0

        /// Read from the `inkwell_commit_batch_packs` histogram of a metrics exposition.
        init(exposition: String) {
            for line in exposition.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                if parts[0] == "inkwell_commit_batch_packs_count" { total = value }
                if parts[0].hasPrefix("inkwell_commit_batch_packs_bucket{le=\""),
                    let bound = Double(
                        parts[0].dropFirst("inkwell_commit_batch_packs_bucket{le=\"".count).prefix { $0 != "\"" }
                    ),
                    bound == 4
                {
                    atMostFour = value
                }
            }
        }
    }

    /// Sends `count` pushes in one go, checks their acks come in order, and returns the server's commits.
    static func commits(limit: Int, count: Int) async throws -> Commits {
        var limits = ServerLimits()
        limits.maximumPushesInFlight = limit
        let server = try await RunningServer.start(limits: limits) { $0.commitLinger = linger }
        let peer = try await server.peer()
        try await peer.subscribe("room")
        var random = SeededGenerator(seed: 5)
        let packs = (0..<count).map { _ in TestPacks.make(room: "room", using: &random) }
        for pack in packs { try await peer.send(.push(room: "room", pack: pack.bytes)) }
        for (index, pack) in packs.enumerated() {
            let ack = try await peer.next(where: \.isAck)
            #expect(ack == .ack(room: "room", pack: pack.id, serverSeq: UInt64(index + 1)), "acks in order")
        }
        #expect(try await server.stored(room: "room").count == count)
        let commits = Commits(exposition: server.server.metricsExposition)
        await server.stop()
        return commits
    }

    @Test func aConnectionHasAtMostTheLimitOfPushesWaitingForACommit() async throws {
        let commits = try await Self.commits(limit: 4, count: 12)
        #expect(commits.total >= 3, "12 packs, at most 4 a commit")
        #expect(commits.atMostFour == commits.total, "a commit of more than 4 packs")
    }

    @Test func pushesUnderTheLimitShareACommit() async throws {
        let commits = try await Self.commits(limit: ServerLimits().maximumPushesInFlight, count: 12)
        #expect(ServerLimits().maximumPushesInFlight == 64)
        #expect(commits.atMostFour < commits.total, "no commit of more than 4 packs")
    }
}
