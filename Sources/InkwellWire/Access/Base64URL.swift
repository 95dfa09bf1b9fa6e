import Foundation

/// Base64url without padding (RFC 4648 §5): the text form of capabilities and room keys, safe in a
/// URL's path, query and fragment.
package enum Base64URL {
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`, or nil when it is not base64url without padding.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ byte in Self.alphabet.contains(byte) }), text.utf8.count % 4 != 1 else {
            return nil
        }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Only the canonical text of these bytes: no second spelling of the same capability or key.
        return encode(bytes) == text ? bytes : nil
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
