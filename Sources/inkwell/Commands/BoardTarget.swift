import ArgumentParser
import Foundation
import InkwellClient
import InkwellCommandLine
import InkwellStore
import InkwellWire

/// What `join` and `export` are pointed at: a room on `--server`, or a board's link, which names the
/// server, the room and what opens it.
struct BoardTarget {
    let room: String
    /// The sync endpoints: none to work without a server, several for the nodes of one cluster.
    let syncURLs: [URL]
    /// The first sync endpoint, when there is a server to talk to.
    var syncURL: URL? { syncURLs.first }
    /// What the link gives: kept in the local store before syncing.
    let credentials: RoomCredentials?

    /// - Throws: `ValidationError` for a link that does not parse, a bad room name or server address.
    init(_ argument: String, server: String?) throws {
        try self.init(argument, servers: server.map { [$0] } ?? [])
    }

    /// A target on several servers (the nodes of one cluster, tried in turn); `servers` replace a link's.
    ///
    /// - Throws: `ValidationError` for a link that does not parse, a bad room name or server address.
    init(_ argument: String, servers: [String]) throws {
        if argument.contains("://") {
            guard let link = RoomLink(argument) else {
                throw ValidationError("not a board link: expected http(s)://HOST/r/ROOM?cap=CAPABILITY#key=KEY")
            }
            room = link.room
            syncURLs = try (servers.isEmpty ? [link.server.absoluteString] : servers).map(ServerAddress.syncURL)
            credentials = link.credentials
            return
        }
        guard SyncProtocol.isValidRoom(argument) else {
            throw ValidationError("room names are 1–128 of A–Z a–z 0–9 . _ -")
        }
        room = argument
        syncURLs = try servers.map(ServerAddress.syncURL)
        credentials = nil
    }

    /// Keeps the link's credentials in `store`, so the replica subscribes with them now and later.
    func remember(in store: Store) throws {
        if let credentials { try store.setCredentials(credentials, for: room) }
    }
}
