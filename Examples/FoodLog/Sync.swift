import ArgumentParser
import Foundation
import InkwellClient
import InkwellCommandLine
import InkwellModel
import UnixSignals

extension FoodLog {
    /// Sends what this device counted and receives what others did, through a server.
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sync the log with a server.",
            discussion: """
                Opens every stored day, joins the room and syncs until SIGINT or SIGTERM, or with \
                --wait-synced until everything counted here is sent and everything in the room is \
                received; then prints "synced ROOM: D days" (D the days stored here). Fails when that takes longer than --timeout.
                """
        )

        @Option(help: "The server, e.g. http://127.0.0.1:8080.")
        var server: String

        @Flag(help: "Exit once nothing is left to upload or download.")
        var waitSynced = false

        @Option(help: "Seconds --wait-synced waits before giving up with an error.")
        var timeout = 60.0

        @OptionGroup var log: LogOptions

        mutating func validate() throws {
            _ = try ServerAddress.syncURL(server)
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let replica = try await log.openReplica(server: try ServerAddress.syncURL(server))
            for day in try log.days(in: replica.store) {
                try await replica.open(ModelDocument.self, room: log.room, document: day.description)
            }
            try await replica.sync?.join(log.room)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await replica.run() }
                do {
                    try await waitForTheEnd(of: replica)
                } catch {
                    await replica.stop()
                    try? await group.waitForAll()
                    throw error
                }
                await replica.stop()
                try await group.waitForAll()
            }
            let days = try log.days(in: replica.store).count
            print("\(waitSynced ? "synced" : "stopped syncing") \(log.room): \(days) days")
        }

        /// Until synced (or failed), with `--wait-synced`; else until a signal to stop.
        private func waitForTheEnd(of replica: Replica) async throws {
            guard waitSynced else {
                for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint) { return }
                return
            }
            do {
                try await replica.waitUntilSynced(timeout: .milliseconds(Int64(timeout * 1_000)))
            } catch {
                let progress = await replica.sync?.currentProgress ?? .offline
                throw NotSynced(description: "not synced within \(timeout) s with \(server): \(progress)")
            }
        }
    }

    /// `--wait-synced` gave up; the message says how far it got.
    struct NotSynced: Error, CustomStringConvertible {
        let description: String
    }
}
