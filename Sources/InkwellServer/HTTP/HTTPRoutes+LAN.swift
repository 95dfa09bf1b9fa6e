import Hummingbird
import NIOCore

extension HTTPRoutes {
    private struct LANAddresses: Encodable {
        /// `http://ADDRESS:PORT` for each IPv4 address of this machine but loopback.
        var urls: [String]
    }

    /// `GET /lan`: for a server advertised on the local network (`inkwell serve --lan`, or the hub an
    /// `inkwell join --lan` peer becomes), the addresses other devices on the network reach it at, which
    /// the page shows as text and a QR code (a browser cannot look hubs up by mDNS); none elsewhere, since a
    /// server on the internet does not list its interfaces. Always 200, so a page asking is never an error.
    func lanAddresses() -> Response {
        guard configuration.advertisedOnLAN else {
            return .json(LANAddresses(urls: []), status: .ok, headers: [.cacheControl: "no-store"])
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
