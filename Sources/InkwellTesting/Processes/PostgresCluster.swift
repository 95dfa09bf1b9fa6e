public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A throw-away PostgreSQL cluster for one test: `initdb` in a temporary folder, `pg_ctl` on a free
/// loopback port, and the folder removed when the test lets go of it.
///
/// PostgreSQL refuses to run as root, so a root test process runs its binaries as the `postgres` user
/// (`runuser`), which owns the folder. Commits are durable as in production (`fsync`, and
/// `synchronous_commit` left on), so a test that kills the cluster sees what an operator's would keep.
public final class PostgresCluster: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder holding the cluster's data, its socket and its log.
    public let folder: URL
    public let port: Int
    public let binaries: URL
    /// The role and database tests use: made at start, the role a superuser that needs no password.
    public let user = "inkwell"
    public let database = "inkwell"

    /// `postgres://USER@127.0.0.1:PORT/DATABASE?sslmode=disable`, as `inkwell serve --postgres` takes it.
    public var url: String { "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    private init(folder: URL, port: Int, binaries: URL) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
    }

    deinit {
        removeNow()
    }

    /// Stops the server at once, if it runs, and removes the folder: what a test that failed before
    /// `stopServer()` needs, since the immediate stop needs no waiting.
    public func removeNow() {
        if FileManager.default.fileExists(atPath: folder.path + "/data/postmaster.pid") {
            _ = try? Self.runBlocking(
                Self.command(binaries, "pg_ctl"),
                ["stop", "-D", folder.path + "/data", "-m", "immediate"]
            )
        }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Clusters left behind

    /// The file in a cluster's folder that names the process it was made for (``processStamp(_:)``).
    static let ownerFile = "owner"

    /// A process as an owner file names it: `PID START`, START its start time in clock ticks after boot
    /// (field 22 of /proc/PID/stat), so that a pid used again by another process is told apart. Nil for
    /// a process that is not running, or where there is no /proc.
    static func processStamp(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let command = stat.lastIndex(of: ")")
        else { return nil }
        // The fields after the command's name, from the third (its state) on: the start time is the 20th.
        let fields = stat[stat.index(after: command)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return "\(pid) \(fields[19])"
    }

    /// Stops and removes the clusters whose test process is gone. A process killed with SIGKILL (or by a
    /// timeout) runs no exit handler, and would leave its server running and its folder behind; the next
    /// test process to start a cluster ends them. A folder with no owner file is left alone.
    public static func removeOrphans() {
        guard let binaries = installedBinaries() else { return }
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("inkwell-postgres-") {
            let folder = temporary.appendingPathComponent(name)
            guard
                let owner = try? String(contentsOf: folder.appendingPathComponent(ownerFile), encoding: .utf8),
                let pid = owner.split(separator: " ").first.flatMap({ pid_t($0) }),
                processStamp(pid) != owner
            else { continue }
            PostgresCluster(folder: folder, port: 0, binaries: binaries).removeNow()
        }
    }

    /// Makes an empty database of its own for one test, and returns its URL.
    public func makeDatabase() async throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await psql("CREATE DATABASE \(name)")
        return "postgres://\(user)@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// The folder of PostgreSQL's server binaries: Debian's newest under `/usr/lib/postgresql`, or the one
    /// `INKWELL_POSTGRES_BIN` names; nil when there is none.
    public static func installedBinaries() -> URL? {
        if let named = ProcessInfo.processInfo.environment["INKWELL_POSTGRES_BIN"] {
            return FileManager.default.isExecutableFile(atPath: named + "/initdb") ? URL(fileURLWithPath: named) : nil
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init)
        for version in versions.sorted(by: >)
        where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return URL(fileURLWithPath: "\(root)/\(version)/bin")
        }
        return nil
    }

    /// Why a test that needs PostgreSQL cannot run here, or nil when it can. In CI (`CI` set) its binaries
    /// must be there: `.ci/run` installs them.
    public static var unavailable: String? {
        installedBinaries() == nil
            ? "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: Scripts/install-packages.sh installs them"
            : nil
    }

    /// Makes and starts a cluster; `settings` are added to the server's command line (`-c NAME=VALUE`).
    public static func start(settings: [String: String] = [:]) async throws -> PostgresCluster {
        guard let binaries = installedBinaries() else { throw Failure(description: unavailable!) }
        removeOrphans()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-postgres-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let stamp = processStamp(getpid()) {
            try stamp.write(to: folder.appendingPathComponent(ownerFile), atomically: true, encoding: .utf8)
        }
        try Self.giveToPostgres(folder)
        let cluster = PostgresCluster(folder: folder, port: try ServerProcess.freePort(), binaries: binaries)
        let initdb = try await Self.run(
            Self.command(binaries, "initdb"),
            ["-D", folder.path + "/data", "-U", cluster.user, "--auth=trust", "--encoding=UTF8", "--no-instructions"]
        )
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.output)") }
        try await cluster.startServer(settings: settings)
        let created = try await Self.run(
            Self.command(binaries, "createdb"),
            ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", cluster.user, cluster.database]
        )
        guard created.status == 0 else { throw Failure(description: "createdb failed: \(created.output)") }
        return cluster
    }

    /// Starts the server on the cluster's port, and returns once it takes connections.
    public func startServer(settings: [String: String] = [:]) async throws {
        var options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path)"
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) { options += " -c \(name)=\(value)" }
        let started = try await Self.run(
            Self.command(binaries, "pg_ctl"),
            ["start", "-D", folder.path + "/data", "-l", folder.path + "/server.log", "-w", "-t", "60", "-o", options]
        )
        guard started.status == 0 else {
            throw Failure(description: "pg_ctl start failed: \(started.output)\n\(log.suffix(2_000))")
        }
    }

    /// Stops the server: `fast` rolls back open transactions and closes connections, as an operator's
    /// restart does; `immediate` stops at once, as a crash would, leaving recovery to the next start.
    public func stopServer(mode: String = "fast") async throws {
        let stopped = try await Self.run(
            Self.command(binaries, "pg_ctl"),
            ["stop", "-D", folder.path + "/data", "-m", mode, "-w", "-t", "60"]
        )
        guard stopped.status == 0 else { throw Failure(description: "pg_ctl stop failed: \(stopped.output)") }
    }

    /// Runs `sql` with `psql` and returns what it printed, unaligned and without headers.
    public func psql(_ sql: String) async throws -> String {
        let result = try await Self.run(
            Self.command(binaries, "psql"),
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-X", "-q", "-A", "-t",
                "-v", "ON_ERROR_STOP=1", "-c", sql,
            ]
        )
        guard result.status == 0 else { throw Failure(description: "psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's log so far.
    public var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    // MARK: Running PostgreSQL's binaries

    /// `binary` in `binaries`, run as `postgres` when this process is root, from `/` (a working directory
    /// it cannot enter would make its tools complain).
    private static func command(_ binaries: URL, _ binary: String) -> [String] {
        let path = ["/usr/bin/env", "-C", "/", binaries.appendingPathComponent(binary).path]
        return geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + path : path
    }

    /// Hands `folder` to the `postgres` user when this process is root: the server refuses a data folder
    /// it does not own.
    private static func giveToPostgres(_ folder: URL) throws {
        guard geteuid() == 0 else { return }
        guard let account = getpwnam("postgres") else {
            throw Failure(description: "there is no postgres user to run PostgreSQL as")
        }
        guard chown(folder.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
            throw Failure(description: "could not give \(folder.path) to postgres: errno \(errno)")
        }
    }

    /// Runs `command` to its end on a thread of its own, not one of the cooperative pool that tests
    /// share: its standard output and error together.
    private static func run(_ command: [String], _ arguments: [String]) async throws -> (status: Int32, output: String)
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(command, arguments) })
            }
        }
    }

    /// Runs `command` to its end, blocking the calling thread: spawned and waited for with `waitpid`, its
    /// output written to a file. Foundation's `Process` was seen never to reap `runuser` once `pg_ctl`
    /// had left a server running, and a pipe would be held open by that server.
    private static func runBlocking(
        _ command: [String],
        _ arguments: [String]
    ) throws -> (status: Int32, output: String) {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-postgres-\(UUID()).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not run \(command[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return (exitStatus, (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "")
    }
}
