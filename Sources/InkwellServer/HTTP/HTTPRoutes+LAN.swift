import Hummingbird
import NIOCore

extension HTTPRoutes {
    private struct LANAddresses: Encodable {
        /// `http://ADDRESS:PORT` for each IPv4 address of this machine but loopback.
        var urls: [String]
    }

    /// `GET /lan`, for a server advertised on the local network (`inkwell serve --lan`, or the hub an
    /// `inkwell join --lan` peer becomes): the addresses other devices on the network reach it at, which
    /// the page shows as text and a QR code (a browser cannot look hubs up by mDNS). 404 elsewhere: a
    /// server on the internet does not list its interfaces.
    func lanAddresses() throws -> Response {
        guard configuration.advertisedOnLAN else {
            throw JSONError(.notFound, "this server is not a hub on a local network")
        }
        let port = configuration.listeningPort()
        let scheme = configuration.hosts.isSecure ? "https" : "http"
        var urls: [String] = []
        for device in (try? System.enumerateDevices()) ?? [] {
            guard case .v4 = device.address, let ip = device.address?.ipAddress, !ip.hasPrefix("127.") else { continue }
            if !urls.contains("\(scheme)://\(ip):\(port)") { urls.append("\(scheme)://\(ip):\(port)") }
        }
        return .json(LANAddresses(urls: urls), status: .ok, headers: [.cacheControl: "no-store"])
    }
}
