/// Reads `Forwarded` field values (RFC 7239): comma-separated elements of `;`-separated `name=value` pairs,
/// a value a token or a quoted string, and gives each element's `for` node as a hop.
///
/// An element with no `for`, or with two, is a hop with no address. So is the rest of a field value from
/// the first byte that breaks the grammar: a client may send anything there, and an unclosed quote hides
/// where the elements a proxy appended begin, so nothing from there on can be told apart from the client's
/// own words.
enum ForwardedElements {
    /// The hops of `values`, one field value after another.
    static func hops(_ values: [String]) -> [ForwardedHop] {
        values.flatMap { hops(Array($0.utf8)) }
    }

    /// Letters, digits, `.`, `_` and `-`: what follows the `_` of an obfuscated node or port.
    static func isObfuscated(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func hops(_ bytes: [UInt8]) -> [ForwardedHop] {
        var scanner = Scanner(bytes: bytes)
        var hops: [ForwardedHop] = []
        var node: Substring?
        var pairs = 0
        var repeated = false
        func finishElement() {
            if pairs > 0 { hops.append(repeated ? .unnamed : node.map { ForwardedHop(node: $0) } ?? .unnamed) }
            (node, pairs, repeated) = (nil, 0, false)
        }
        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.peek else { break }
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") {
                scanner.advance()
                if byte == UInt8(ascii: ",") { finishElement() }
                continue
            }
            guard let name = scanner.token(), scanner.take(UInt8(ascii: "=")),
                let value = scanner.peek == UInt8(ascii: "\"") ? scanner.quoted() : scanner.token()
            else {
                hops.append(.unnamed)
                return hops
            }
            pairs += 1
            if name.lowercased() == "for" {
                repeated = repeated || node != nil
                node = Substring(value)
            }
            scanner.skipWhitespace()
            guard scanner.peek.map({ $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }) ?? true else {
                hops.append(.unnamed)
                return hops
            }
        }
        finishElement()
        return hops
    }

    /// A cursor over one field value's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func advance() { index += 1 }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
        }

        /// `1*tchar` (RFC 9110 §5.6.2).
        mutating func token() -> String? {
            let start = index
            while let byte = peek, ForwardedElements.isTokenByte(byte) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// A quoted string, its escapes undone; nil when it is not closed or holds a control byte.
        mutating func quoted() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var text: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek, escaped >= 0x20 || escaped == 0x09, escaped != 0x7f else { return nil }
                    text.append(escaped)
                    index += 1
                case 0x09, 0x20...0x7e, 0x80...0xff:
                    text.append(byte)
                default:
                    return nil
                }
            }
            return nil
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}
