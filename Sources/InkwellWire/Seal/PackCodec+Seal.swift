import Foundation

extension PackCodec {
    /// The associated data of a sealed pack's body: the label, the room, the author's key and the header
    /// (`schema_version`, `compression`, `body_size`). The signature covers the ciphertext but cannot
    /// name the pack's id; binding these here means a sealed body moved into another room's envelope,
    /// re-signed by another author or given another header fails to open.
    static func sealAssociatedData(_ wire: WirePack) -> [UInt8] {
        var data = Sealing.associatedData("inkwell-pack-seal/1", room: wire.room)
        data.append(contentsOf: wire.author)
        Sealing.appendUInt32(wire.schemaVersion, to: &data)
        Sealing.appendUInt32(UInt32(truncatingIfNeeded: wire.compression.rawValue), to: &data)
        Sealing.appendUInt32(wire.bodySize, to: &data)
        return data
    }

    /// Seals `wire`'s body (already compressed, room and author set) with `key` under `nonce`, and
    /// names the scheme, the key's id and the nonce in its `encryption`.
    static func seal(_ wire: inout WirePack, with key: RoomKey, nonce: [UInt8]) {
        wire.encryption.scheme = Sealing.scheme
        wire.encryption.keyID = Data(key.id)
        wire.encryption.nonce = Data(nonce)
        let sealed = Sealing.seal(Array(wire.body), key: key, nonce: nonce, associatedData: sealAssociatedData(wire))
        wire.body = Data(sealed)
    }

    /// The most bytes a sealed body may have for a declared `body_size` of `size`: deflate's worst case
    /// for any level and window (zlib's `deflateBound` when it does not know the parameters:
    /// n + ⌈n/8⌉ + ⌈n/64⌉ + 5), plus the tag. A relay refuses a larger body without the key: it could
    /// not be the sealing of a body of that size, whatever its compression.
    package static func maximumSealedBodyBytes(bodySize size: Int) -> Int {
        size + (size + 7) / 8 + (size + 63) / 64 + 5 + Sealing.tagBytes
    }

    /// What anyone can check of a sealed pack without its key, in this order: the scheme, an 8-byte key
    /// id, a 12-byte nonce, a declared size at most `maximumBodyBytes`, and a sealed body no larger than
    /// ``maximumSealedBodyBytes(bodySize:)`` allows.
    static func checkSealedEnvelope(_ wire: WirePack, maximumBodyBytes: Int) throws(WireError) {
        guard wire.encryption.scheme == Sealing.scheme else { throw .unsupportedEncryption }
        guard wire.encryption.keyID.count == RoomKey.idByteCount else {
            throw .invalidField("pack.encryption.key_id")
        }
        guard wire.encryption.nonce.count == Sealing.nonceBytes else { throw .invalidField("pack.encryption.nonce") }
        guard Int(wire.bodySize) <= maximumBodyBytes else { throw .tooLarge("pack body") }
        guard wire.body.count <= maximumSealedBodyBytes(bodySize: Int(wire.bodySize)) else {
            throw .tooLarge("sealed pack body")
        }
    }

    /// The plaintext body of a sealed pack whose signature holds: the envelope checked as a relay checks
    /// it, then the key's id, then the body opened with `key`. What it returns is what a plain pack would
    /// carry in `body`, to be inflated and checked the same way.
    ///
    /// - Complexity: O(body).
    static func opened(_ wire: WirePack, key: RoomKey) throws(WireError) -> [UInt8] {
        try checkSealedEnvelope(wire, maximumBodyBytes: WireLimits.maximumPackBodyBytes)
        guard wire.encryption.keyID.elementsEqual(key.id) else { throw .wrongKey }
        return try Sealing.open(
            Array(wire.body),
            key: key,
            nonce: Array(wire.encryption.nonce),
            associatedData: sealAssociatedData(wire)
        )
    }
}
