import Foundation
import InkwellDiscovery
import InkwellServer
import Logging

/// What a server does as a LAN hub, once it listens: advertise itself (`--lan`), relay its rooms to its
/// upstream servers (`--upstream`), and link with other hubs it finds, so that two hubs started at once
/// still hold one board. Of two hubs, the one whose name sorts later opens the link.
actor HubRole {
    private let advertise: Bool
    /// Whether it links with other hubs found: its relays reach its own socket by plain `ws://`, which a
    /// hub serving TLS does not answer.
    private let linksHubs: Bool
    private let upstreams: [Upstream]
    private let logger: Logger
    private var server: SyncServer?
    private var relays: HubRelays?
    private var advertiser: ServiceAdvertiser?
    private var looking: Task<Void, Never>?

    init(advertise: Bool, upstreams: [Upstream], tls: Bool = false, logger: Logger) {
        self.advertise = advertise
        self.linksHubs = !tls
        self.upstreams = upstreams
        self.logger = logger
    }

    var isNeeded: Bool { advertise || !upstreams.isEmpty }

    /// The server it plays the hub for: rooms its connections follow are relayed from then on.
    func attach(_ server: SyncServer) {
        self.server = server
        server.onRoomFollowed { [weak self] room in
            Task { await self?.followed(room) }
        }
    }

    /// The server listens on `port` of `host`: start advertising and relaying.
    func listening(host: String, port: Int) async {
        guard isNeeded else { return }
        let relays = HubRelays(hub: InteropRoute.syncURL(host: host, port: port), logger: logger)
        self.relays = relays
        await relays.add(upstreams: upstreams)
        if let server {
            do {
                for room in try await server.roomNames() { await relays.follow(room) }
            } catch {
                logger.error("could not list the rooms to relay", metadata: ["reason": "\(error)"])
            }
        }
        guard advertise else { return }
        do {
            let advertiser = try LANAdvertising.advertise(port: port, logger: logger)
            self.advertiser = advertiser
            let own = advertiser.instance
            if linksHubs { looking = Task { [weak self] in await self?.lookForOtherHubs(own: own) } }
        } catch {
            logger.error("not advertised on the local network", metadata: ["reason": "\(error)"])
        }
    }

    private func followed(_ room: String) async {
        await relays?.follow(room)
    }

    /// Every few seconds, the other hubs on the LAN: each one whose name sorts before this one's is
    /// relayed to.
    private func lookForOtherHubs(own: String) async {
        while !Task.isCancelled {
            let found = (try? await Task.detached { try ServiceBrowser.browse() }.value) ?? []
            for hub in found where hub.instance < own {
                guard let other = try? Upstream("ws://\(hub.host):\(hub.port)/sync") else { continue }
                await relays?.add(server: other)
            }
            try? await Task.sleep(for: .seconds(3))
        }
    }

    func stop() async {
        looking?.cancel()
        advertiser?.stop()
        await relays?.stop()
    }
}
