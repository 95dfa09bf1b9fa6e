import ArgumentParser
import Foundation
import InkwellBoard
import InkwellClient
import InkwellCommandLine
import InkwellGeometry
import InkwellStore
import Logging

#if canImport(Glibc)
import Glibc
#endif

extension InkwellBench {
    /// How long a client takes to resume after its node is killed, with the client as users have it.
    struct Failover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Kill a client's node and time how long the client takes to resume on another.",
            discussion: """
                Two clients join a new room: one with every --server in turn (it connects to the first), the \
                other with the last --server only. Once both hold a first stroke, the first client's node \
                (--kill-pid) is killed with SIGKILL and the first client draws a stroke at once. Prints how \
                long the client took to be welcomed by the next node, and how long that stroke took to reach \
                the other client, both from the kill. The clients reconnect with their default backoff.
                """
        )

        @Option(help: "The nodes' addresses, e.g. http://127.0.0.1:8081; the first is the one killed.")
        var server: [String]

        @Option(help: "The process id of the first --server's node, killed with SIGKILL.")
        var killPid: Int32

        @Option(help: "Seconds to wait for each step before giving up.")
        var timeout: Double = 30

        @Option(help: "The clients' log level on standard error.")
        var logLevel = "critical"

        mutating func validate() throws {
            guard server.count >= 2 else { throw ValidationError("give --server at least twice") }
            for address in server { _ = try ServerAddress.syncURL(address) }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let logger = Logger(label: "inkwell.failover")
            let urls = try server.map { try ServerAddress.syncURL($0) }
            let room = "failover-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let mover = try SyncClient(store: try Store.inMemory(), urls: urls, rooms: [room], logger: logger)
            let watcher = try SyncClient(store: try Store.inMemory(), url: urls.last!, rooms: [room], logger: logger)
            let limit = Duration.milliseconds(Int64(timeout * 1_000))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await mover.run() }
                group.addTask { try await watcher.run() }
                defer { group.cancelAll() }
                _ = try await mover.record(Self.stroke(0), room: room)
                try await Self.wait("the first stroke to reach the other client", within: limit) {
                    try watcher.store.changes(room: room, document: "main").count == 1
                }
                let killed = ContinuousClock.now
                guard kill(killPid, SIGKILL) == 0 else { throw ValidationError("could not kill process \(killPid)") }
                _ = try await mover.record(Self.stroke(1), room: room)
                try await Self.wait("the client to be welcomed by another node", within: limit) {
                    await mover.statistics.connectionsOpened >= 2
                }
                let resumed = ContinuousClock.now - killed
                try await Self.wait("the stroke drawn at the kill to reach the other client", within: limit) {
                    try watcher.store.changes(room: room, document: "main").count == 2
                }
                let delivered = ContinuousClock.now - killed
                print("resumed on another node after the kill (ms)   \(Self.milliseconds(resumed))")
                print("stroke drawn at the kill received by a peer (ms)   \(Self.milliseconds(delivered))")
                await mover.stop()
                await watcher.stop()
            }
        }

        static func stroke(_ index: Int) -> BoardEdit {
            let points = (0..<8).map { Point(Double(index * 10 + $0), Double($0 * 3)) }
            return BoardEdit(
                board: BoardID("main"),
                operations: [.addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)]
            )
        }

        static func wait(_ what: String, within limit: Duration, until done: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + limit
            while try await !done() {
                guard ContinuousClock.now < deadline else { throw ValidationError("timed out waiting for \(what)") }
                try await Task.sleep(for: .milliseconds(2))
            }
        }

        static func milliseconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.1f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
        }
    }
}
