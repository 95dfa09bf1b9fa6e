import Foundation
import InkwellTesting
import Testing

/// The throw-away PostgreSQL the scale-out tests run against: made, started on a free loopback port with
/// durable commits, stopped and started again with what was committed kept, and removed.
@Suite struct PostgresClusterTests {
    @Test func aClusterIsMadeStartedRestartedAndRemoved() async throws {
        if let reason = PostgresCluster.unavailable {
            // CI installs PostgreSQL; elsewhere the test says plainly that it did not run.
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(reason)") }
            print("PostgresClusterTests skipped: \(reason)")
            return
        }
        var folder: URL?
        do {
            let cluster = try await PostgresCluster.start()
            folder = cluster.folder
            #expect(try await cluster.psql("SHOW synchronous_commit") == "on")
            #expect(try await cluster.psql("SHOW fsync") == "on")
            #expect(try await cluster.psql("SELECT current_user, current_database()") == "inkwell|inkwell")
            _ = try await cluster.psql("CREATE TABLE kept (n integer); INSERT INTO kept VALUES (1), (2), (3)")

            // Stopped at once, as in a crash, and started again: the committed rows are there.
            try await cluster.stopServer(mode: "immediate")
            await #expect(throws: (any Error).self) { try await cluster.psql("SELECT 1") }
            try await cluster.startServer()
            #expect(try await cluster.psql("SELECT sum(n) FROM kept") == "6")
            try await cluster.stopServer()
        }
        let removed = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: removed.path), "the cluster's folder is removed")
    }

    /// A cluster whose test process is gone (killed before its exit handler could stop it) is stopped and
    /// removed by the next one to start; a live process's cluster is left running.
    @Test func aClusterWhoseProcessIsGoneIsStoppedAndRemovedByTheNext() async throws {
        guard PostgresCluster.unavailable == nil else {
            print("PostgresClusterTests skipped: \(PostgresCluster.unavailable!)")
            return
        }
        let orphan = try await PostgresCluster.start()
        let kept = try await PostgresCluster.start()
        // The owner file of a process that has ended: this one's pid, with another start time.
        try "\(getpid()) 0".write(to: orphan.folder.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        #expect(try await orphan.psql("SELECT 1") == "1")

        PostgresCluster.removeOrphans()
        #expect(!FileManager.default.fileExists(atPath: orphan.folder.path), "the orphan's folder is removed")
        await #expect(throws: (any Error).self, "the orphan's server is stopped") { try await orphan.psql("SELECT 1") }
        #expect(try await kept.psql("SELECT 1") == "1", "a live process's cluster runs on")
        try await kept.stopServer()
    }
}
