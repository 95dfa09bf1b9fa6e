package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names this server answers to: the `Host` of every request, and the origins that count as its own
/// pages when they open the sync socket.
///
/// Against DNS rebinding: a page at `evil.example` whose name is then pointed at 127.0.0.1 reaches a
/// server on loopback as `Host: evil.example:PORT` with `Origin: http://evil.example:PORT`, the same origin
/// as far as the browser knows. Only a name can be rebound, so without public URLs the server answers
/// `localhost` and IP addresses (which no page of another site can carry) on its own port; with them, only
/// their `host[:port]`.
package struct HostPolicy: Sendable {
    /// A public URL as requests carry it: the `Host` values that name it and its origin as browsers write it.
    private struct Public: Sendable {
        var hosts: Set<String>
        var origin: String
        var isSecure: Bool
    }

    private let publics: [Public]
    /// The address given to listen on, lowercased: a name given there is one of the server's own.
    private let listeningHost: String
    /// Whether the server itself speaks TLS: its own pages are then `https:` and its socket `wss:`.
    package let isSecure: Bool

    /// - Parameter publicURLs: `http` or `https` URLs with a host and no path beyond `/` (see
    ///   ``ServerConfiguration/publicURLs``); others are ignored.
    package init(publicURLs: [URL] = [], listeningHost: String = "127.0.0.1", isSecure: Bool = false) {
        publics = publicURLs.compactMap { url in
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
                let defaultPort = Self.defaultPort(scheme: scheme)
            else { return nil }
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            let port = url.port ?? defaultPort
            let authority = port == defaultPort ? name : "\(name):\(port)"
            return Public(
                hosts: [name + ":\(port)", authority],
                origin: "\(scheme)://\(authority)",
                isSecure: scheme == "https"
            )
        }
        self.listeningHost = listeningHost.lowercased()
        self.isSecure = isSecure
    }

    /// Whether the public URLs, not the local names, decide which hosts are served.
    package var hasPublicURLs: Bool { !publics.isEmpty }

    /// Whether a request with this `Host` (HTTP/1.1 requires one) is for this server listening on `port`.
    package func permits(host: String?, port: Int) -> Bool {
        guard let host = host?.lowercased(), let (name, given) = Self.split(host) else { return false }
        if hasPublicURLs { return publics.contains { $0.hosts.contains(host) } }
        let defaultPort = isSecure ? 443 : 80
        guard given ?? defaultPort == port else { return false }
        return name == "localhost" || name == listeningHost || Self.isAddress(name)
    }

    /// Whether a page of `origin` (`scheme://host[:port]`, as browsers send it) was served by this server.
    package func isOwnOrigin(_ origin: String, port: Int) -> Bool {
        let origin = origin.lowercased()
        if hasPublicURLs { return publics.contains { $0.origin == origin } }
        let scheme = isSecure ? "https://" : "http://"
        guard origin.hasPrefix(scheme) else { return false }
        let authority = origin.dropFirst(scheme.count)
        guard !authority.contains("/") else { return false }
        return permits(host: String(authority), port: port)
    }

    /// The sync socket's origin for a page served under `host` (`ws://host` or `wss://host`), or nil for a
    /// host this server does not answer or that is not plainly written.
    package func socketOrigin(host: String?, port: Int) -> String? {
        guard let host = host?.lowercased(), permits(host: host, port: port),
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) })
        else { return nil }
        let secure = publics.first { $0.hosts.contains(host) }?.isSecure ?? isSecure
        return (secure ? "wss://" : "ws://") + host
    }

    /// `name` and the port of a `Host` value (`name`, `name:port`, `[v6]`, `[v6]:port`); nil if malformed.
    private static func split(_ host: String) -> (name: String, port: Int?)? {
        var name = Substring(host)
        var port: Int?
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
            name = host[..<colon]
            port = number
        }
        guard !name.isEmpty, name.hasPrefix("[") == name.hasSuffix("]") else { return nil }
        return (String(name), port)
    }

    /// Whether `name` is an IPv4 address or a bracketed IPv6 one: never the name of another site.
    private static func isAddress(_ name: String) -> Bool {
        if name.hasPrefix("["), name.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, name, &address) == 1
    }

    private static func defaultPort(scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
