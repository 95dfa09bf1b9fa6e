import Foundation
import Synchronization

/// One PostgreSQL cluster for a whole test process, started on first use; each test makes a database of
/// its own on it (``PostgresCluster/makeDatabase()``), which takes milliseconds where a cluster takes
/// seconds. The cluster is stopped and removed when the process exits.
public enum SharedPostgres {
    private static let starting = Mutex<Task<PostgresCluster, any Error>?>(nil)
    /// The cluster once started, for the exit handler.
    private static let started = Mutex<PostgresCluster?>(nil)

    /// The process's cluster, started now if it is not yet.
    public static func cluster() async throws -> PostgresCluster {
        let task = starting.withLock { task in
            if let task { return task }
            let new = Task {
                let cluster = try await PostgresCluster.start()
                started.withLock { $0 = cluster }
                atexit { SharedPostgres.removeAtExit() }
                return cluster
            }
            task = new
            return new
        }
        return try await task.value
    }

    /// A fresh database's URL, or nil (with the reason printed, and recorded by `report` in CI, where
    /// PostgreSQL must be installed) when PostgreSQL's binaries are not on this machine.
    public static func database(skipping test: String, report: (String) -> Void) async throws -> String? {
        if let reason = PostgresCluster.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil { report(reason) }
            print("\(test) skipped: \(reason)")
            return nil
        }
        return try await cluster().makeDatabase()
    }

    private static func removeAtExit() {
        started.withLock { $0 }?.removeNow()
    }
}
