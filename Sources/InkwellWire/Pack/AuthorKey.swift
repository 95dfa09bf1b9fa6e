import Crypto
import Foundation
public import InkwellSync

/// The Ed25519 key pair that owns one replica: only packs it signs may carry that replica's changes.
///
/// A device makes one per replica and keeps the private half in its local store; the replica id is
/// derived from the public half (``ReplicaID/init(authorKey:)``), so a receiver checks authorship
/// from the pack alone, with no server in the path.
public struct AuthorKey: Sendable {
    /// Holds BoringSSL's key, which never changes after it is made: signing with it from any thread is safe.
    private final class Box: @unchecked Sendable {
        let key: Curve25519.Signing.PrivateKey
        init(_ key: Curve25519.Signing.PrivateKey) { self.key = key }
    }

    private let box: Box
    /// The public key's 32 raw bytes, as packs carry it.
    public let publicKey: [UInt8]
    /// The replica this key owns.
    public let replica: ReplicaID

    /// A new key from the system's cryptographic generator.
    public init() {
        self.init(key: Curve25519.Signing.PrivateKey())
    }

    /// A key drawn from `generator`: inject a seeded generator in tests and simulations, where the same
    /// seed must give the same replicas and the same packs.
    public init(using generator: inout some RandomNumberGenerator) {
        let seed = (0..<4).flatMap { _ in
            let word = generator.next()
            return (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        }
        // Any 32 bytes are a valid Ed25519 seed.
        try! self.init(rawRepresentation: seed)
    }

    /// A key kept as ``rawRepresentation`` (its 32-byte seed).
    ///
    /// - Throws: ``WireError/invalidField(_:)`` for bytes that are not a seed.
    public init(rawRepresentation: [UInt8]) throws(WireError) {
        do {
            self.init(key: try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation))
        } catch {
            throw .invalidField("author key")
        }
    }

    private init(key: Curve25519.Signing.PrivateKey) {
        self.box = Box(key)
        self.publicKey = Array(key.publicKey.rawRepresentation)
        self.replica = ReplicaID(authorKey: publicKey)
    }

    /// The 32-byte seed to keep in a store. Secret.
    public var rawRepresentation: [UInt8] { Array(box.key.rawRepresentation) }

    /// An Ed25519 signature of `message`: 64 bytes, the same for the same message (RFC 8032).
    func sign(_ message: [UInt8]) -> [UInt8] {
        // Signing fails only for a key BoringSSL cannot use, which `init` would not have made.
        Array(try! box.key.signature(for: message))
    }
}

extension ReplicaID {
    /// The replica owned by the Ed25519 public key `authorKey`: the first 16 bytes of
    /// SHA-256("inkwell-replica/1" + key). Finding another key with the same replica costs 2^128 tries.
    public init(authorKey: some Collection<UInt8>) {
        var hash = SHA256()
        hash.update(data: Array("inkwell-replica/1".utf8))
        hash.update(data: Array(authorKey))
        let digest = Array(hash.finalize())
        self.init(bytes: digest[0..<16])!
    }
}
