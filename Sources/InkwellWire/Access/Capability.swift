import Crypto
import Foundation

/// A bearer capability for a room: a kind letter and 32 random bytes in base64url, 44 characters.
///
/// Whoever holds one may do what its kind allows; the server keeps only its ``hash`` and compares
/// hashes, so its store leaks no link. The letter lets a holder know its own rights before it
/// connects (a page shows "view only" offline); the server never trusts it.
public struct Capability: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Character, Hashable, Sendable, CaseIterable {
        case admin = "a"
        case edit = "e"
        case view = "v"

        /// What a capability of this kind lets its holder do.
        public var rights: Rights {
            switch self {
            case .admin: .admin
            case .edit: .edit
            case .view: .view
            }
        }
    }

    /// The letter and the text of 32 bytes.
    public static let length = 44
    /// Longer text in a frame is malformed, not merely unknown.
    public static let maximumLength = 128
    /// The size of ``hash``.
    public static let hashBytes = 32

    public let kind: Kind
    /// The whole text, as links carry it.
    public let text: String

    /// Parses the text form; nil unless it is a kind letter and 32 bytes in canonical base64url.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == Self.length, let letter = text.first, let kind = Kind(rawValue: letter),
            let bytes = Base64URL.decode(text.dropFirst()), bytes.count == 32
        else { return nil }
        self.kind = kind
        self.text = String(text)
    }

    /// A new capability of `kind` from 32 bytes of the system's secure random source.
    public static func mint(_ kind: Kind) -> Capability {
        var generator = SystemRandomNumberGenerator()
        return mint(kind, using: &generator)
    }

    /// A new capability from `generator`: seeded in tests, the system's secure source otherwise.
    public static func mint(_ kind: Kind, using generator: inout some RandomNumberGenerator) -> Capability {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Capability(String(kind.rawValue) + Base64URL.encode(bytes))!
    }

    /// SHA-256 of the text's UTF-8 bytes: all the server stores.
    public var hash: [UInt8] { Self.hash(of: text) }

    /// The hash of any presented text, well-formed or not: what a server compares with those it keeps.
    public static func hash(of text: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// The kind alone: capabilities are secrets and stay out of logs and descriptions.
    public var description: String { "\(kind) capability" }
}
