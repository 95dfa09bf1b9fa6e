import ArgumentParser
import Foundation
import InkwellBoard
import InkwellClient
import InkwellCommandLine
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

extension Inkwell {
    /// Writes a board as SVG: from a server (synced into a store first) or from a local store alone.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a room's board as SVG, from a server or from a local store.",
            discussion: """
                With --server, syncs the room into the store (--data, or memory) until nothing is left to \
                download, then exports. With only --data, exports what the local store holds, offline. Prints \
                the same summary line as join.
                """
        )

        @Argument(help: "The room.")
        var room: String

        @Option(help: "The server, e.g. http://127.0.0.1:8080.")
        var server: String?

        @Option(help: "A local store's directory (as given to join --data).")
        var data: String?

        @Option(help: "The board within the room.")
        var board = "main"

        @Option(help: "The SVG file to write.")
        var svg: String

        @Option(help: "Seconds to wait for the sync before giving up.")
        var timeout = 120.0

        @Option(help: "Log level on standard error.")
        var logLevel = "warning"

        mutating func validate() throws {
            guard SyncProtocol.isValidRoom(room) else {
                throw ValidationError("room names are 1–128 of A–Z a–z 0–9 . _ -")
            }
            guard server != nil || data != nil else { throw ValidationError("give --server, --data or both") }
            if let server { _ = try ServerAddress.syncURL(server) }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let store = try LocalStore.open(data)
            if let server {
                // Synced into the store first, then read like any local store.

                let client = try SyncClient(
                    store: store,
                    url: try ServerAddress.syncURL(server),
                    rooms: [room],
                    logger: Logger(label: "inkwell.export")
                )
                let running = Task { try await client.run() }
                do {
                    try await client.waitUntilSynced(timeout: .milliseconds(Int64(timeout * 1_000)))
                } catch {
                    await client.stop()
                    _ = try? await running.value
                    throw ValidationError("not synced within \(timeout) s: \(await client.currentProgress)")
                }
                await client.stop()
                try await running.value
            }
            let replica = try await Replica(store: store, documentTypes: DocumentTypes([BoardEdit.self]))
            let state = try await replica.open(BoardState.self, room: room, document: board)
            await replica.stop()
            try BoardReport(room: room, board: board, state: state).write(svg: svg)
        }
    }
}
