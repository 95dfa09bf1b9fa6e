import Foundation
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import PostgresNIO
import Testing

@testable import InkwellServer

/// What only the PostgreSQL log has to show (the promises every store keeps are tested on both, in the
/// PackLog*Tests suites): the schema's versions, durability checked at start, and commits from several
/// nodes at once that no reader sees out of order.
@Suite(.timeLimit(.minutes(2))) struct PostgresPackLogTests {
    @Test func aDatabaseANewerServerMigratedIsRefused() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        // Preparing twice is a no-op the second time.
        try await TestStore.withPostgres(url: url) { log in try await log.prepare() }
        try await TestStore.withPostgres(url: url) { log in
            try await log.client.query("INSERT INTO inkwell_schema (version) VALUES (99)", logger: log.logger)
        }
        await #expect(throws: PostgresPackLog.Failure.newerSchema(found: 99, known: PostgresSchema.migrations.count)) {
            try await TestStore.withPostgres(url: url) { _ in }
        }
    }

    @Test func aDatabaseWhoseCommitsMightNotBeDurableIsRefused() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let name = try #require(URLComponents(string: url)?.path.dropFirst())
        try await TestStore.withPostgres(url: url) { log in
            try await log.client.query(
                PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) SET synchronous_commit = off"),
                logger: log.logger
            )
        }
        await #expect(throws: PostgresPackLog.Failure.synchronousCommitOff("off")) {
            try await TestStore.withPostgres(url: url) { _ in }
        }
    }

    @Test func theServersIdIsMadeOnceAndSharedByEveryNode() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let first = try await TestStore.withPostgres(url: url) { log in try await log.serverID() }
        let second = try await TestStore.withPostgres(url: url) { log in try await log.serverID() }
        #expect(first == second)
    }

    /// Three nodes commit batches into the same rooms at once while a fourth reads: at every read each
    /// room's positions run 1…n without a gap, and in the end every acknowledged pack is at its position.
    @Test func commitsFromSeveralNodesAtOnceLeaveNoGapAReaderSees() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let seed = SeededGenerator.seedFromEnvironment()
        print("PostgresPackLogTests seed \(seed) (INKWELL_SEED)")
        let rooms = ["r1", "r2", "r3", "r4"]
        // The schema first, so that the nodes do not wait on each other's migration.
        try await TestStore.withPostgres(url: url) { _ in }
        let acknowledged = try await withThrowingTaskGroup(of: [(PackLog.Push, UInt64)].self) { group in
            for node in 0..<3 {
                group.addTask {
                    try await TestStore.withPostgres(url: url) { log in
                        var random = SeededGenerator(seed: seed &+ UInt64(node))
                        var acknowledged: [(PackLog.Push, UInt64)] = []
                        for batch in 0..<40 {
                            let pushes = (0..<3).map { index in
                                Self.push(rooms.randomElement(using: &random)!, node * 1_000_000 + batch * 10 + index)
                            }
                            let outcomes = try await log.append(pushes, watermarks: [])
                            for (push, outcome) in zip(pushes, outcomes) {
                                guard let position = outcome.position else {
                                    throw TestFailure("seed \(seed): a push was refused: \(outcome)")
                                }
                                acknowledged.append((push, position))
                            }
                        }
                        return acknowledged
                    }
                }
            }
            group.addTask {
                try await TestStore.withPostgres(url: url) { log in
                    for _ in 0..<60 {
                        for room in rooms {
                            let positions = try await log.packs(room: room, after: 0, maximumBytes: .max)
                                .map(\.serverSeq)
                            guard positions == (0..<positions.count).map({ UInt64($0 + 1) }) else {
                                throw TestFailure("seed \(seed): \(room) was read as \(positions)")
                            }
                        }
                    }
                    return []
                }
            }
            var all: [(PackLog.Push, UInt64)] = []
            for try await part in group { all += part }
            return all
        }
        #expect(acknowledged.count == 3 * 40 * 3)
        try await TestStore.withPostgres(url: url) { log in
            var held: [String: [UInt64: [UInt8]]] = [:]
            for room in rooms {
                let packs = try await log.packs(room: room, after: 0, maximumBytes: .max)
                #expect(packs.map(\.serverSeq) == (0..<packs.count).map { UInt64($0 + 1) })
                held[room] = Dictionary(uniqueKeysWithValues: packs.map { ($0.serverSeq, $0.bytes) })
            }
            for (push, position) in acknowledged {
                #expect(held[push.room]?[position] == push.bytes, "seed \(seed): \(push.room) at \(position)")
            }
        }
    }

    /// A pack's push: `size` seeded bytes, the pack named by them.
    static func push(_ room: String, _ seed: Int, size: Int = 64) -> PackLog.Push {
        var random = SeededGenerator(seed: UInt64(seed))
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        return PackLog.Push(room: room, pack: PackID(of: bytes), bytes: bytes)
    }
}
