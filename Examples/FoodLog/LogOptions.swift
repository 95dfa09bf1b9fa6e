import ArgumentParser
import Foundation
import InkwellClient
import InkwellCommandLine
import InkwellModel
import InkwellStore
import InkwellSync
import Logging

/// Where the log is kept, shared by every command so that all three agree.
struct LogOptions: ParsableArguments {
    @Option(help: "The folder of this device's local store (created if missing).")
    var data: String

    @Option(help: "The room the days are kept in; devices that sync one log use the same.")
    var room = "food-log"

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "warning"

    mutating func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    /// The store in `--data` and a replica over it that reads model documents, syncing with `server`
    /// when one is given.
    func openReplica(server: URL? = nil) async throws -> Replica {
        ProcessLogging.bootstrap(level: logLevel)
        return try await Replica(
            store: try Store(directory: data),
            server: server,
            documentTypes: DocumentTypes([ModelEdit.self]),
            logger: Logger(label: "food-log")
        )
    }

    /// The days stored in the room, in order; documents of the room that are not days are left out.
    func days(in store: Store) throws -> [Day] {
        try store.documents(room: room).compactMap(Day.init)
    }
}
