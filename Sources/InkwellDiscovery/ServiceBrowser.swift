import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A service found on the local network.
public struct DiscoveredService: Hashable, Sendable {
    /// The instance's name (its first label).
    public var instance: String
    /// The address it answered from, or its A record.
    public var host: String
    public var port: UInt16
    /// Its TXT record's `key=value` strings.
    public var txt: [String: String]
}

/// Finds DNS-SD services on the local network with one-shot mDNS queries (RFC 6762 §5.1): the query
/// goes to the mDNS group from a port of this browser's own, three times, and responders answer it by
/// unicast. No port is bound that another responder may hold.
public enum ServiceBrowser {
    /// The services of `type` that answer within `timeout`, by instance name; with `first`, as soon as
    /// one has answered.
    ///
    /// - Throws: ``DiscoveryError`` when no socket can be opened.
    public static func browse(
        _ type: DNSName = ServiceAdvertiser.serviceType,
        timeout: Duration = .milliseconds(1_500),
        first: Bool = false
    ) throws -> [DiscoveredService] {
        let socket = try UDPSocket.open(port: 0, joining: false)
        let id = UInt16.random(in: 1...UInt16.max)
        let query = DNSMessage(id: id, questions: [DNSMessage.Question(name: type, type: DNSType.ptr)]).encoded()
        var found: [String: DiscoveredService] = [:]
        let start = ContinuousClock.now
        var sent = 0
        // Sent at once, after a quarter and after three quarters of a second: one lost datagram costs little.
        let sendAt: [Duration] = [.zero, .milliseconds(250), .milliseconds(750)]
        while ContinuousClock.now - start < timeout {
            if sent < sendAt.count, ContinuousClock.now - start >= sendAt[sent] {
                socket.multicast(query)
                sent += 1
            }
            guard let (bytes, source) = socket.receive(within: 50),
                let message = try? DNSMessage(decoding: bytes), message.isResponse
            else { continue }
            for service in services(in: message, of: type, from: source) { found[service.instance] = service }
            if first, !found.isEmpty { break }
        }
        return found.values.sorted { $0.instance < $1.instance }
    }

    /// The instances a response describes whole: a PTR to the instance, and its SRV.
    static func services(in message: DNSMessage, of type: DNSName, from source: sockaddr_in) -> [DiscoveredService] {
        let records = message.answers + message.additionals
        var services: [DiscoveredService] = []
        for case .ptr(let instanceName) in records.filter({ $0.name == type && $0.ttl > 0 }).map(\.data) {
            guard instanceName.labels.count == type.labels.count + 1,
                DNSName(labels: Array(instanceName.labels.dropFirst())) == type,
                let srv = records.first(where: { record in
                    if case .srv = record.data { record.name == instanceName } else { false }
                }),
                case .srv(_, _, let port, let target) = srv.data, port > 0
            else { continue }
            var txt: [String: String] = [:]
            for record in records where record.name == instanceName {
                guard case .txt(let strings) = record.data else { continue }
                for string in strings {
                    let parts = string.split(separator: "=", maxSplits: 1)
                    txt[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
                }
            }
            let addresses = records.compactMap { record -> String? in
                guard record.name == target, case .a(let bytes) = record.data else { return nil }
                return bytes.map(String.init).joined(separator: ".")
            }
            // The address the answer came from is one this host reaches it at; an A record of the same is best.
            let from = NetworkInterfaces.text(source.sin_addr)
            let host = addresses.contains(from) || addresses.isEmpty ? from : addresses[0]
            services.append(DiscoveredService(instance: instanceName.labels[0], host: host, port: port, txt: txt))
        }
        return services
    }
}
