import Crypto
import Foundation

/// AES-256-GCM as packs, presence and blobs use it (`docs/ACCESS-FORMATS.md`, "Sealing"): a 12-byte nonce, fresh
/// and random for every message, a 16-byte tag after the ciphertext, and associated data that binds
/// each sealed thing to where it belongs (its room, and for a pack its author and header), so sealed
/// bytes moved anywhere else fail to open.
package enum Sealing {
    /// The scheme a pack's `encryption.scheme` names.
    package static let scheme = "aes-256-gcm"
    package static let nonceBytes = 12
    package static let tagBytes = 16

    /// A fresh nonce from the system's secure random source. Random 96-bit nonces stay safe for about
    /// 2^32 messages under one key, far more than a room's members seal.
    package static func randomNonce() -> [UInt8] {
        Array(AES.GCM.Nonce())
    }

    /// `plain` sealed with `key`: the ciphertext, then the tag. The nonce is the caller's to carry.
    ///
    /// - Complexity: O(`plain.count`).
    package static func seal(
        _ plain: [UInt8],
        key: RoomKey,
        nonce: [UInt8],
        associatedData: [UInt8]
    ) -> [UInt8] {
        precondition(nonce.count == nonceBytes, "AES-GCM nonces here are 12 bytes")
        // Sealing fails only for a nonce or key of the wrong size, which the checks above and RoomKey rule out.
        let box = try! AES.GCM.seal(
            plain,
            using: key.symmetric,
            nonce: try! AES.GCM.Nonce(data: nonce),
            authenticating: associatedData
        )
        var sealed = [UInt8]()
        sealed.reserveCapacity(plain.count + tagBytes)
        sealed.append(contentsOf: box.ciphertext)
        sealed.append(contentsOf: box.tag)
        return sealed
    }

    /// The plaintext of `sealed` (ciphertext, then tag), or ``WireError/tampered`` when it does not
    /// authenticate: altered bytes, another key, other associated data, or too short to hold a tag.
    ///
    /// - Complexity: O(`sealed.count`).
    package static func open(
        _ sealed: some Collection<UInt8>,
        key: RoomKey,
        nonce: some Collection<UInt8>,
        associatedData: [UInt8]
    ) throws(WireError) -> [UInt8] {
        guard nonce.count == nonceBytes, sealed.count >= tagBytes else { throw .tampered }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: Array(nonce)),
                ciphertext: Array(sealed.dropLast(tagBytes)),
                tag: Array(sealed.suffix(tagBytes))
            )
            return Array(try AES.GCM.open(box, using: key.symmetric, authenticating: associatedData))
        } catch {
            throw .tampered
        }
    }

    /// `nonce || sealed`: a presence's or blob's sealed form, which carries its own nonce.
    package static func sealWithNonce(
        _ plain: [UInt8],
        key: RoomKey,
        nonce: [UInt8],
        associatedData: [UInt8]
    ) -> [UInt8] {
        nonce + seal(plain, key: key, nonce: nonce, associatedData: associatedData)
    }

    /// The plaintext of `nonce || sealed`.
    package static func openWithNonce(
        _ bytes: [UInt8],
        key: RoomKey,
        associatedData: [UInt8]
    ) throws(WireError) -> [UInt8] {
        guard bytes.count >= nonceBytes + tagBytes else { throw .tampered }
        return try open(
            bytes[nonceBytes...],
            key: key,
            nonce: bytes[..<nonceBytes],
            associatedData: associatedData
        )
    }

    /// The associated data every kind starts with: UTF-8 `label`, a zero byte, then the room's UTF-8
    /// bytes after their count as a big-endian u32. The zero and the count keep one kind's data from
    /// reading as another's.
    package static func associatedData(_ label: String, room: String) -> [UInt8] {
        var data = Array(label.utf8)
        data.append(0)
        appendUInt32(UInt32(room.utf8.count), to: &data)
        data.append(contentsOf: room.utf8)
        return data
    }

    /// `value`'s four bytes, big-endian.
    package static func appendUInt32(_ value: UInt32, to data: inout [UInt8]) {
        data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
