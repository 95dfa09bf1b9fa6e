import Foundation
import InkwellClient
import Logging

/// The relays of a hub: for each room it holds and each server it syncs with (its `--upstream`s, and
/// other hubs found on the LAN), one ``PackRelay`` between the hub's own sync socket and that server,
/// started when the room is first seen and kept until the process ends.
actor HubRelays {
    private let hub: URL
    private let logger: Logger
    /// Servers that take every room the hub holds.
    private var servers: [Upstream] = []
    private var relays: [String: Task<Void, Never>] = [:]
    private var rooms: Set<String> = []

    init(hub: URL, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// Syncs with `upstreams` from now on: a link's room at once, whether or not the hub has seen it
    /// yet; a server's, every room the hub holds.
    func add(upstreams: [Upstream]) {
        for upstream in upstreams {
            if let room = upstream.room {
                start(room: room, to: upstream)
            } else {
                add(server: upstream)
            }
        }
    }

    /// A room the hub holds or a client followed: relayed to every server from now on.
    func follow(_ room: String) {
        guard rooms.insert(room).inserted else { return }
        for server in servers { start(room: room, to: server) }
    }

    /// Another server to relay every room to (a hub found on the LAN), from now on.
    func add(server: Upstream) {
        guard !servers.contains(where: { $0.syncURL == server.syncURL }) else { return }
        servers.append(server)
        for room in rooms { start(room: room, to: server) }
    }

    private func start(room: String, to upstream: Upstream) {
        let key = "\(room) \(upstream.syncURL)"
        guard relays[key] == nil else { return }
        let relay = PackRelay(
            room: room,
            first: PackRelay.Side(url: hub, capability: upstream.capability),
            second: PackRelay.Side(url: upstream.syncURL, capability: upstream.capability),
            logger: logger
        )
        logger.info("relaying a room", metadata: ["room": "\(room)", "to": "\(upstream.syncURL)"])
        relays[key] = Task { await relay.run() }
    }

    func stop() {
        for relay in relays.values { relay.cancel() }
        relays = [:]
    }
}
