#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 UDP socket for multicast DNS: the responder's, bound to port 5353 with the mDNS group joined
/// on every interface, or a browser's on a port of its own (RFC 6762's one-shot queries, answered by
/// unicast to it).
final class UDPSocket: @unchecked Sendable {
    /// mDNS's group and port.
    static let group = in_addr(s_addr: inet_addr("224.0.0.251"))
    static let port: UInt16 = 5353

    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A socket on `port` (0 for any), looping its multicast back to this host and sending it as far as
    /// the link goes. With `joining`, the mDNS group is joined on every interface that has an address.
    ///
    /// - Throws: ``DiscoveryError`` when the socket cannot be made or bound (port 5353 held by a
    ///   responder that does not share it, such as a running Avahi).
    static func open(port: UInt16, joining: Bool) throws(DiscoveryError) -> UDPSocket {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket") }
        let socket = UDPSocket(descriptor: descriptor)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        var loop: UInt8 = 1
        setsockopt(descriptor, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &loop, 1)
        var ttl: UInt8 = 255
        setsockopt(descriptor, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, 1)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: INADDR_ANY)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            throw errno == EADDRINUSE
                ? .portHeld(port)
                : .system("bind to port \(port)")
        }
        if joining {
            var joined = 0
            for interface in NetworkInterfaces.ipv4() {
                var request = ip_mreq(imr_multiaddr: group, imr_interface: interface.address)
                if setsockopt(
                    descriptor,
                    Int32(IPPROTO_IP),
                    IP_ADD_MEMBERSHIP,
                    &request,
                    socklen_t(MemoryLayout<ip_mreq>.size)
                ) == 0 {
                    joined += 1
                }
            }
            guard joined > 0 else { throw .system("join the mDNS group on any interface") }
        }
        return socket
    }

    /// Sends to `address`; multicast goes out of the interface whose address is `interface`.
    func send(_ bytes: [UInt8], to address: sockaddr_in, via interface: in_addr? = nil) {
        if var interface {
            setsockopt(
                descriptor,
                Int32(IPPROTO_IP),
                IP_MULTICAST_IF,
                &interface,
                socklen_t(MemoryLayout<in_addr>.size)
            )
        }
        var address = address
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor,
                        buffer.baseAddress,
                        buffer.count,
                        0,
                        $0,
                        socklen_t(MemoryLayout<sockaddr_in>.size)
                    )
                }
            }
        }
    }

    /// Sends to the mDNS group out of every interface.
    func multicast(_ bytes: [UInt8]) {
        for interface in NetworkInterfaces.ipv4() {
            send(bytes, to: Self.groupAddress, via: interface.address)
        }
    }

    static var groupAddress: sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = group
        return address
    }

    /// The next datagram within `milliseconds`, and where it came from; `nil` when none came.
    func receive(within milliseconds: Int32) -> (bytes: [UInt8], from: sockaddr_in)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: DNSMessage.maximumBytes + 1)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer.prefix(count)), source)
    }
}

/// The machine's IPv4 interfaces that are up and can multicast.
enum NetworkInterfaces {
    struct Interface {
        var name: String
        var address: in_addr
    }

    static func ipv4() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [Interface] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0,
                flags & Int32(IFF_MULTICAST) != 0 || flags & Int32(IFF_LOOPBACK) != 0
            else { continue }
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            found.append(Interface(name: String(cString: entry.pointee.ifa_name), address: ipv4))
        }
        return found
    }

    /// `a.b.c.d`.
    static func text(_ address: in_addr) -> String {
        let value = UInt32(bigEndian: address.s_addr)
        return (0..<4).map { String(value >> (24 - 8 * UInt32($0)) & 0xFF) }.joined(separator: ".")
    }
}
