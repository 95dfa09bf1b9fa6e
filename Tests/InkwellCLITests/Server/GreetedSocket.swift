import InkwellClient
import InkwellSync
import InkwellWire
import Logging

extension SyncSocket {
    /// A connection to `url` that has said hello as a new device, logging only what is critical: how the
    /// tests that kill servers, or fill their disks, talk to them.
    static func greeted(url: String, agent: String) async throws -> SyncSocket {
        var logger = Logger(label: "test.\(agent)")
        logger.logLevel = .critical
        let socket = try await SyncSocket.connect(url: url, logger: logger)
        try await socket.send(
            .hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: ReplicaID.random(),
                agent: agent
            )
        )
        return socket
    }
}
