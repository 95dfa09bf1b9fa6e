import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellTesting
import Testing

/// A client given the URLs of two nodes on one PostgreSQL: when its node is killed it resumes on the
/// other from its watermarks, and a member that stayed on the other node holds every change it made, before
/// the kill and after.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ClusterFailoverTests {
    static let room = "studio"

    @Test func aClientWhoseNodeIsKilledResumesOnAnotherAndLosesNothing() async throws {
        if let reason = PostgresCluster.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(reason)") }
            print("ClusterFailoverTests skipped: \(reason)")
            return
        }
        let seed = seed("aClientWhoseNodeIsKilledResumesOnAnotherAndLosesNothing")
        var random = SeededGenerator(seed: seed)
        let url = try await SharedPostgres.cluster().makeDatabase()
        let (dataA, dataB) = (try TemporaryDirectory("node-a"), try TemporaryDirectory("node-b"))
        let a = try await ServerProcess.start(data: dataA.url, arguments: ["--postgres", url])
        let b = try await ServerProcess.start(data: dataB.url, arguments: ["--postgres", url])
        let alice = try SyncClient(
            store: try Store.inMemory(),
            urls: [a.syncURL, b.syncURL],
            rooms: [Self.room],
            configuration: endToEndConfiguration(seed: seed)
        )
        let bob = try SyncClient(
            store: try Store.inMemory(),
            url: b.syncURL,
            rooms: [Self.room],
            configuration: endToEndConfiguration(seed: seed &+ 1)
        )
        var recorded: [BoardChange] = []
        do {
            try await whileRunning([alice, bob]) {
                try await eventually("alice is welcomed on her first node") {
                    await alice.statistics.connectionsOpened == 1
                }
                for _ in 0..<20 {
                    recorded.append(try await alice.record(randomStroke(using: &random), room: Self.room))
                }
                try await eventually("bob, on the other node, holds alice's changes") {
                    try bob.store.changes(room: Self.room, document: "main").count == recorded.count
                }
                let killed = ContinuousClock.now
                await a.kill()
                // Drawn while her node is down: kept in her outbox, pushed once she is on the other.
                for _ in 0..<20 {
                    recorded.append(try await alice.record(randomStroke(using: &random), room: Self.room))
                }
                try await eventually("alice resumes on the other node") {
                    await alice.statistics.connectionsOpened == 2
                }
                print("ClusterFailoverTests: alice resumed \(ContinuousClock.now - killed) after her node was killed")
                try await eventually("bob holds every change alice made") {
                    try bob.store.changes(room: Self.room, document: "main").count == recorded.count
                }
                try await alice.waitUntilSynced(timeout: .seconds(30))
                #expect(try alice.store.outboxSize().changes == 0)
            }
        } catch {
            await b.stop()
            throw error
        }
        #expect(await b.stop() == 0)
        let reference = referenceState(recorded)
        #expect(try boardState(alice.store, room: Self.room).canonicalHash == reference.canonicalHash)
        #expect(try boardState(bob.store, room: Self.room).canonicalHash == reference.canonicalHash)
    }
}
