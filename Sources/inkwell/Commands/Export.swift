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

        @Argument(help: "The room, or a board's link (which names the server).")
        var room: String

        @Option(help: "The server, e.g. http://127.0.0.1:8080 (not needed with a link).")
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
            let target = try BoardTarget(room, server: server)
            guard target.syncURL != nil || data != nil else { throw ValidationError("give --server, --data or both") }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let store = try LocalStore.open(data)
            let target = try BoardTarget(room, server: server)
            let room = target.room
            try target.remember(in: store)
            if let syncURL = target.syncURL {
                // Synced into the store first, then read like any local store.
                let client = try SyncClient(
                    store: store,
                    url: syncURL,
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
                let refusal = await client.refusal(room: room)
                await client.stop()
                try await running.value
                if let refusal { throw ValidationError("the server refused the room: \(refusal)") }
            }
            let replica = try await Replica(store: store, documentTypes: DocumentTypes(documents: [BoardState.self]))
            let state = try await replica.open(BoardState.self, room: room, document: board)
            await replica.stop()
            // Images from the store, fetched into it first from a server that was given: moving blobs takes
            // no sync connection.
            let client = try target.syncURL.map {
                try SyncClient(store: store, url: $0, rooms: [room], logger: Logger(label: "inkwell.export"))
            }
            let images = await BoardImages.gather(
                for: state,
                room: room,
                store: store,
                client: client,
                logger: Logger(label: "inkwell.export")
            )
            try BoardReport(room: room, board: board, state: state, images: images).write(svg: svg)
        }
    }
}
