import Foundation
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellServer

/// PostgreSQL restarted under a node carrying pushes: while it is down the node answers each push
/// `storageFailed` (not fatal: push it again) and `/readyz` 503, acknowledges nothing it did not commit,
/// and once the database is back it stores and acknowledges again with no restart of its own.
@Suite(.timeLimit(.minutes(3))) struct DatabaseRestartTests {
    @Test func aNodeRefusesPushesWhileItsDatabaseIsDownAndGoesOnOnceItIsBack() async throws {
        if let reason = PostgresCluster.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(reason)") }
            print("DatabaseRestartTests skipped: \(reason)")
            return
        }
        // A cluster of its own: the shared one serves other tests meanwhile.
        let cluster = try await PostgresCluster.start()
        let node = try await RunningServer.start(store: .postgres, postgresURL: cluster.url)
        let pusher = try await node.peer()
        try await pusher.subscribe("room")
        var random = SeededGenerator(seed: 41)
        var acknowledged: [PackID: UInt64] = [:]
        var refused = 0

        /// Pushes one pack, pushing it again after each refusal until it is acknowledged or `until` passes.
        func push(until deadline: ContinuousClock.Instant) async throws -> Bool {
            let pack = TestPacks.make(room: "room", using: &random)
            while ContinuousClock.now < deadline {
                try await pusher.send(.push(room: "room", pack: pack.bytes))
                let answer = try await pusher.next(within: .seconds(15)) { $0.isAck || $0.isError }
                switch answer {
                case .ack(_, let id, let position):
                    #expect(id == pack.id)
                    acknowledged[id] = position
                    return true
                case .error(let code, _, let fatal, _):
                    #expect(code == ErrorCode.storageFailed.rawValue && !fatal, "answered \(answer)")
                    refused += 1
                    try await Task.sleep(for: .milliseconds(100))
                default:
                    break
                }
            }
            return false
        }

        for _ in 0..<10 { #expect(try await push(until: .now + .seconds(10))) }
        #expect(try await Self.readiness(node) == 200)

        try await cluster.stopServer(mode: "fast")
        // Down: pushes are refused, not acknowledged, and the node says it is not ready.
        #expect(try await push(until: .now + .seconds(2)) == false)
        #expect(refused > 0)
        #expect(try await Self.readiness(node) == 503)

        try await cluster.startServer()
        // Back: the same node takes pushes again, the one refused among them.
        for _ in 0..<10 { #expect(try await push(until: .now + .seconds(30))) }
        #expect(try await Self.readiness(node) == 200)

        // Every acknowledged pack is stored at its position, and nothing else.
        let stored = try await node.stored(room: "room")
        #expect(stored.count == acknowledged.count)
        let positions = Dictionary(uniqueKeysWithValues: stored.map { (PackID(of: $0.bytes), $0.serverSeq) })
        for (pack, position) in acknowledged {
            #expect(positions[pack] == position, "acknowledged \(pack) at \(position) is not stored there")
        }
        print("DatabaseRestartTests: \(acknowledged.count) acknowledged, \(refused) pushes refused while down")
        await node.stop()
        try await cluster.stopServer()
    }

    /// The status `/readyz` answers.
    static func readiness(_ node: RunningServer) async throws -> Int {
        try await RebindingTests.get("/readyz", port: node.port, host: "127.0.0.1:\(node.port)").status
    }
}
