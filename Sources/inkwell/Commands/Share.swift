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
    /// Makes a board that this replica administers, or prints (and rotates) the links of one it made.
    ///
    /// Its output is a contract: scripts read the two lines `edit LINK` and `view LINK`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a board and print its edit and view links, or print those of a board this store made.",
            discussion: """
                Without ROOM, makes a new board (encrypted unless --plain): a fresh room id, admin, edit and \
                view capabilities and a key, kept in --data, registered with the server. With ROOM, prints the \
                links of a board this store made (it holds the admin capability); --rotate edit or view \
                replaces that link first, and the server closes connections that used the old one. Prints two \
                lines: "edit LINK" and "view LINK".
                """
        )

        @Argument(help: "A board this store made (default: make a new one).")
        var room: String?

        @Option(help: "The server, e.g. http://127.0.0.1:8080.")
        var server: String

        @Option(help: "The local store's directory, which keeps the board's admin capability.")
        var data: String

        @Flag(help: "Make the board without end-to-end encryption.")
        var plain = false

        @Option(help: "Replace this link before printing: edit or view (repeatable).")
        var rotate: [Kind] = []

        @Option(help: "Seconds to wait for the server.")
        var timeout = 30.0

        @Option(help: "Log level on standard error.")
        var logLevel = "warning"

        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case edit, view
        }

        mutating func validate() throws {
            if let room, !SyncProtocol.isValidRoom(room) {
                throw ValidationError("room names are 1–128 of A–Z a–z 0–9 . _ -")
            }
            if room == nil, !rotate.isEmpty {
                throw ValidationError("--rotate needs the ROOM of a board this store made")
            }
            if room != nil, plain { throw ValidationError("--plain applies to a new board only") }
            _ = try ServerAddress.syncURL(server)
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let store = try Store(directory: data)
            let room = self.room ?? RoomLink.newRoomID()
            if self.room == nil {
                try store.setCredentials(.minted(key: plain ? nil : RoomKey.generate()), for: room)
            } else {
                guard try store.credentials(room: room)?.admin != nil else {
                    throw ValidationError(
                        "this store does not administer \(room): only the store that made a board can share it"
                    )
                }
            }
            let client = try SyncClient(
                store: store,
                url: try ServerAddress.syncURL(server),
                rooms: [room],
                logger: Logger(label: "inkwell.share")
            )
            let running = Task { try await client.run() }
            let outcome: Result<RoomCredentials, any Error>
            do {
                let limit = Duration.milliseconds(Int64(timeout * 1_000))
                _ = try await client.waitForAccess(room: room, timeout: limit)
                var credentials = try store.credentials(room: room)!
                if !rotate.isEmpty {
                    credentials = try await client.rotate(
                        room: room,
                        edit: rotate.contains(.edit),
                        view: rotate.contains(.view),
                        timeout: limit
                    )
                }
                outcome = .success(credentials)
            } catch {
                outcome = .failure(error)
            }
            await client.stop()
            _ = try? await running.value
            let credentials = try outcome.get()
            let links = RoomLink.shareable(
                server: try ServerAddress.pageURL(server),
                room: room,
                credentials: credentials
            )
            print("edit \(links.edit!)")
            print("view \(links.view!)")
        }
    }
}
