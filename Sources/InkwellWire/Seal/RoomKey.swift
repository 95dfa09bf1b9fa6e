import Crypto
import Foundation

/// The secret of an encrypted room: 32 bytes of AES-256-GCM key that seal its packs, presence and blobs.
///
/// It travels only in a link's fragment (`#key=`), which browsers never send to a server, so the server
/// relays and stores what it cannot read. Whoever holds the link reads the board; the capability beside
/// it says what the server lets them do.
public struct RoomKey: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The key's size: AES-256.
    public static let byteCount = 32
    /// The size of ``id``.
    public static let idByteCount = 8

    /// The raw key. Secret.
    package let bytes: [UInt8]
    /// The first 8 bytes of SHA-256("inkwell-room-key-id/1" || key): a sealed pack names the key that
    /// sealed it, so a reader holding another one says "wrong key" rather than "tampered". Not secret.
    public let id: [UInt8]
    /// The bytes as swift-crypto takes them. Made per use: `SymmetricKey` is not `Sendable` in swift-crypto 3,
    /// and BoringSSL expands the key for every message anyway.
    var symmetric: SymmetricKey { SymmetricKey(data: bytes) }

    /// Exactly ``byteCount`` bytes; nil for any other length.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
        var hash = SHA256()
        hash.update(data: Array("inkwell-room-key-id/1".utf8))
        hash.update(data: self.bytes)
        self.id = Array(hash.finalize().prefix(Self.idByteCount))
    }

    /// Parses the text form a link carries; nil unless it is 32 bytes in canonical base64url.
    public init?(text: some StringProtocol) {
        guard let bytes = Base64URL.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// The key as a link's fragment carries it: base64url without padding, 43 characters. Secret.
    public var text: String { Base64URL.encode(bytes) }

    /// A new key from the system's secure random source.
    public static func generate() -> RoomKey {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new key from `generator`: seeded in tests, the system's secure source otherwise.
    public static func generate(using generator: inout some RandomNumberGenerator) -> RoomKey {
        RoomKey(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })!
    }

    public static func == (lhs: RoomKey, rhs: RoomKey) -> Bool { lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id alone: keys stay out of logs, descriptions and dumps.
    public var description: String {
        "room key " + id.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    public var customMirror: Mirror { Mirror(self, children: ["id": description], displayStyle: .struct) }
}
