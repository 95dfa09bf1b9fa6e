import Crypto
public import InkwellSync

/// A device's word that it checked a room snapshot and holds it: signed by one of its author keys in
/// the room, so that no connection can say it in another author's name.
public struct SnapshotCheck: Hashable, Sendable {
    public let room: String
    public let snapshot: SnapshotID
    /// The signer's Ed25519 public key (32 bytes) and its signature (64 bytes).
    public let author: [UInt8]
    public let signature: [UInt8]

    /// What the signature covers: a label no other signature starts with, the room, the snapshot.
    static func signingInput(room: String, snapshot: SnapshotID) -> [UInt8] {
        var input = Sealing.associatedData("inkwell-snapshot-checked/1", room: room)
        input.append(contentsOf: snapshot.bytes)
        return input
    }

    /// The check of `snapshot`, signed by `key`.
    public init(room: String, snapshot: SnapshotID, signedBy key: AuthorKey) {
        self.room = room
        self.snapshot = snapshot
        self.author = key.publicKey
        self.signature = key.sign(Self.signingInput(room: room, snapshot: snapshot))
    }

    /// A check as received, not yet verified.
    public init(room: String, snapshot: SnapshotID, author: [UInt8], signature: [UInt8]) {
        self.room = room
        self.snapshot = snapshot
        self.author = author
        self.signature = signature
    }

    /// The replica whose key signed it, when the signature verifies; `nil` otherwise.
    ///
    /// - Complexity: one Ed25519 verification.
    public func signer() -> ReplicaID? {
        guard author.count == 32, signature.count == 64,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: author),
            key.isValidSignature(signature, for: Self.signingInput(room: room, snapshot: snapshot))
        else { return nil }
        return ReplicaID(authorKey: author)
    }
}
