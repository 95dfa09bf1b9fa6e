import Crypto
import Foundation
public import InkwellSync

extension PackCodec {
    /// What a signature covers before the pack's bytes, so that a pack signature can never be taken for
    /// a signature of anything else the same key might sign.
    static let signingPrefix = Array("inkwell-pack-signature/1".utf8)
    /// The key of the signature field: field 9, length-delimited, then its length, 64.
    static let signatureKey: [UInt8] = [0x4A, 0x40]
    /// The signature field as it ends every pack.
    static let signatureFieldBytes = 2 + 64

    /// The bytes a signature covers: the prefix, then the encoded pack before its signature field.
    static func signingInput(_ unsigned: ArraySlice<UInt8>) -> [UInt8] {
        var input = signingPrefix
        input.reserveCapacity(signingPrefix.count + unsigned.count)
        input.append(contentsOf: unsigned)
        return input
    }

    /// `unsigned`, an encoded pack without its signature, followed by `author`'s signature of it: what
    /// ``encode(_:signedBy:compression:)`` does last, and what tests use to sign envelopes they build by hand.
    package static func signed(_ unsigned: [UInt8], by author: AuthorKey) -> [UInt8] {
        var bytes = unsigned
        bytes.reserveCapacity(unsigned.count + signatureFieldBytes)
        bytes.append(contentsOf: signatureKey)
        bytes.append(contentsOf: author.sign(signingInput(unsigned[...])))
        return bytes
    }

    /// The replica that signed `bytes`, once the envelope parses, names a 32-byte key and a valid room
    /// (`room`, when given), ends with its 64-byte signature, and the signature verifies.
    ///
    /// - Complexity: O(bytes), plus one Ed25519 verification.
    static func verified(_ bytes: [UInt8], room: String?) throws(WireError) -> (wire: WirePack, author: ReplicaID) {
        let wire = try envelope(bytes)
        guard wire.author.count == 32 else { throw .invalidField("pack.author") }
        let end = bytes.count - signatureFieldBytes
        guard end >= 0, bytes[end] == signatureKey[0], bytes[end + 1] == signatureKey[1],
            wire.signature.count == 64, wire.signature.elementsEqual(bytes[(end + 2)...])
        else { throw .invalidField("pack.signature") }
        guard SyncProtocol.isValidRoom(wire.room) else { throw .invalidField("pack.room") }
        if let room, room != wire.room { throw .wrongRoom }
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: wire.author),
            key.isValidSignature(wire.signature, for: signingInput(bytes[..<end]))
        else { throw .badSignature }
        return (wire, ReplicaID(authorKey: wire.author))
    }
}
