/// One hop of a request's way to the server, as a forwarding header lists it: the address a proxy saw the
/// request come from, or no address.
package enum ForwardedHop: Hashable, Sendable {
    case address(IPAddress)
    /// A hop with no address to count by: `unknown`, an obfuscated identifier (`_hidden`, RFC 7239 §6.3),
    /// or text that is not a node at all. The way back from the server stops there.
    case unnamed

    /// Reads a node as RFC 7239 writes it (`192.0.2.43`, `192.0.2.43:47011`, `[2001:db8::17]:4711`,
    /// `unknown`, `_hidden`), and a bare IPv6 address as `X-Forwarded-For` writes it. A port, obfuscated or
    /// not, is checked and dropped: the limits count by address.
    init(node text: Substring) {
        var host = text
        var port: Substring?
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else {
                self = .unnamed
                return
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard host.contains(":"), rest.isEmpty || rest.first == ":" else {
                self = .unnamed
                return
            }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if text.count(where: { $0 == ":" }) == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard port.map(Self.isPort) ?? true, let address = IPAddress(host) else {
            self = .unnamed
            return
        }
        self = .address(address)
    }

    /// The hops of `X-Forwarded-For` field values, in order: comma-separated nodes, empty ones skipped.
    static func xForwardedFor(_ values: [String]) -> [ForwardedHop] {
        values.flatMap { value in
            value.split(separator: ",").compactMap { item in
                let node = item.trimmingOptionalWhitespace()
                return node.isEmpty ? nil : ForwardedHop(node: node)
            }
        }
    }

    /// A port number (up to 65535), or an obfuscated port: `_` then letters, digits, `.`, `_` or `-`.
    private static func isPort(_ text: Substring) -> Bool {
        let bytes = text.utf8
        if bytes.first == UInt8(ascii: "_") {
            return bytes.count > 1 && bytes.count <= 64 && bytes.dropFirst().allSatisfy(ForwardedElements.isObfuscated)
        }
        guard (1...5).contains(bytes.count), bytes.allSatisfy({ (48...57).contains($0) }) else { return false }
        return Int(text).map { $0 <= 65_535 } ?? false
    }
}

extension Substring {
    /// Without the spaces and tabs HTTP allows around list items.
    func trimmingOptionalWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
