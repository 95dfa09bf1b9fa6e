import Foundation
import InkwellDiscovery
import Logging

/// How a hub is named and described on the LAN (`_inkwell._tcp`, see ``ServiceAdvertiser``).
enum LANAdvertising {
    /// A name unique on the network: this machine's and the port's, and a few random letters in case
    /// two machines share a name.
    static func instanceName(port: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let tag = String((0..<6).map { _ in letters.randomElement()! })
        return String("inkwell-\(ServiceAdvertiser.hostLabel)-\(port)-\(tag)".prefix(63))
    }

    /// Starts answering for a hub on `port`.
    static func advertise(port: Int, logger: Logger) throws -> ServiceAdvertiser {
        let advertiser = try ServiceAdvertiser(
            instance: instanceName(port: port),
            port: UInt16(port),
            txt: ["v=1", "path=/sync"],
            logger: logger
        )
        logger.notice(
            "advertised on the local network",
            metadata: ["name": "\(advertiser.instance)", "port": "\(port)"]
        )
        return advertiser
    }
}
