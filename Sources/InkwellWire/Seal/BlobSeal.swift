/// Blobs (images on a board) of an encrypted room, sealed before upload: nonce, then ciphertext and
/// tag. A sealed blob's address is the SHA-256 of the sealed bytes, so the server still checks the
/// hash of what is uploaded, and learns nothing of the image but its size.
public enum BlobSeal {
    /// How many bytes sealing adds: the nonce and the tag.
    public static let overhead = Sealing.nonceBytes + Sealing.tagBytes

    /// `bytes` sealed with `key` for `room`, under a fresh random nonce.
    ///
    /// - Complexity: O(`bytes.count`).
    public static func seal(_ bytes: [UInt8], room: String, key: RoomKey) -> [UInt8] {
        seal(bytes, room: room, key: key, nonce: Sealing.randomNonce())
    }

    /// ``seal(_:room:key:)`` under the given 12-byte `nonce`: for conformance vectors and tests only.
    package static func seal(_ bytes: [UInt8], room: String, key: RoomKey, nonce: [UInt8]) -> [UInt8] {
        Sealing.sealWithNonce(bytes, key: key, nonce: nonce, associatedData: associatedData(room: room))
    }

    /// The blob inside `sealed`.
    ///
    /// - Throws: ``WireError/tampered`` when it does not open with `key` for `room`: altered, cut short,
    ///   sealed with another key or for another room.
    /// - Complexity: O(`sealed.count`).
    public static func open(_ sealed: [UInt8], room: String, key: RoomKey) throws(WireError) -> [UInt8] {
        try Sealing.openWithNonce(sealed, key: key, associatedData: associatedData(room: room))
    }

    /// "inkwell-blob-seal/1" || 0x00 || u32(len(room)) || room.
    static func associatedData(room: String) -> [UInt8] {
        Sealing.associatedData("inkwell-blob-seal/1", room: room)
    }
}
