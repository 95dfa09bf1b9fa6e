import Foundation
import InkwellServer
import Logging
import ServiceLifecycle

/// An Inkwell server inside this process, advertised on the LAN: what `inkwell join --lan` becomes when
/// no hub answers, so that the next peer finds it. Rooms are open (whoever is on the network and knows
/// the room's name may join; an encrypted board's key still never leaves the links), and it serves the
/// page, so a browser on the network can join it by its URL.
final class EmbeddedHub: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let role: HubRole

    /// The hub's sync socket, as this process reaches it.
    var syncURL: URL { URL(string: "ws://127.0.0.1:\(port)/sync")! }

    private init(port: Int, group: ServiceGroup, running: Task<Void, any Error>, role: HubRole) {
        self.port = port
        self.group = group
        self.running = running
        self.role = role
    }

    /// Starts the server on a free port of every interface, keeping its data in `directory`.
    static func start(directory: String, webRoot: String?, logger: Logger) async throws -> EmbeddedHub {
        var configuration = ServerConfiguration(
            host: "0.0.0.0",
            port: 0,
            dataDirectory: directory,
            webRoot: webRoot,
            openRooms: true
        )
        configuration.socketRoutes = [InteropRoute.make(host: "0.0.0.0", tls: false)]
        configuration.advertisedOnLAN = true
        let role = HubRole(advertise: true, upstreams: [], logger: logger)
        let (ports, bound) = AsyncStream.makeStream(of: Int.self)
        let server = try SyncServer(configuration: configuration, logger: logger) { host, port in
            await role.listening(host: host, port: port)
            bound.yield(port)
            bound.finish()
        }
        await role.attach(server)
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let running = Task { try await group.run() }
        var port = 0
        for await value in ports { port = value }
        guard port > 0 else {
            running.cancel()
            throw HubError(
                description: "the LAN hub did not start: \((try? await running.value).map { "\($0)" } ?? "")"
            )
        }
        return EmbeddedHub(port: port, group: group, running: running, role: role)
    }

    func stop() async {
        await role.stop()
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}

struct HubError: Error, CustomStringConvertible {
    let description: String
}
