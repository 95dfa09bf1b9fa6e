package import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as 16 bytes, an IPv4 one mapped into IPv6 (`::ffff:a.b.c.d`), so that a proxy
/// given as `127.0.0.1` is the same peer whether it reaches a dual-stack socket or an IPv4 one.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads dotted-decimal IPv4 (four parts, no leading zeros) or IPv6 without brackets or zone; nil
    /// for anything else, a name included: only what `inet_pton` takes is an address.
    package init?(_ text: Substring) {
        // The longest IPv6 text (an IPv4 tail included) is 45 characters; anything longer is not one.
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        let string = String(text)
        var bytes = [UInt8](repeating: 0, count: 16)
        if string.contains(":") {
            guard inet_pton(AF_INET6, string, &bytes) == 1 else { return nil }
        } else {
            guard inet_pton(AF_INET, string, &bytes) == 1 else { return nil }
            bytes = Self.mappedPrefix + bytes[0..<4]
        }
        self.bytes = bytes
    }

    /// The address of an IP socket address; nil for a Unix socket.
    package init?(_ address: SocketAddress?) {
        guard let text = address?.ipAddress else { return nil }
        self.init(Substring(text))
    }

    /// Whether this is an IPv4 address (mapped).
    package var isIPv4: Bool { bytes.starts(with: Self.mappedPrefix) }

    /// The address as `inet_ntop` writes it: dotted decimal for IPv4 (mapped ones too), compressed IPv6.
    package var description: String {
        if isIPv4 { return bytes[12...].map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: 64)
        guard inet_ntop(AF_INET6, bytes, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address as a socket address (port 0), the form the per-address limits are keyed by.
    package var socketAddress: SocketAddress? {
        try? SocketAddress(ipAddress: description, port: 0)
    }

    /// The first `count` bits kept, the rest zero.
    package func masked(to count: Int) -> IPAddress {
        IPAddress(
            bytes: bytes.enumerated().map { index, byte in
                let kept = min(max(count - index * 8, 0), 8)
                return kept == 8 ? byte : byte & ~(0xff >> kept)
            }
        )
    }

    private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
}
