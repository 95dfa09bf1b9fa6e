import Foundation
import InkwellSync
import SwiftProtobuf

extension Presence {
    /// This presence as an encrypted room sends it: `room` and `device` kept for the relay to route
    /// by, everything else moved into ``sealed`` (a `SealedPresence`, sealed with `key` under a fresh
    /// random nonce) and left empty outside.
    public func sealed(with key: RoomKey) -> Presence {
        sealed(with: key, nonce: Sealing.randomNonce())
    }

    /// ``sealed(with:)`` under the given 12-byte `nonce`: for conformance vectors and tests only.
    package func sealed(with key: RoomKey, nonce: [UInt8]) -> Presence {
        let fields = SyncCodec.encode(self)
        var inside = WireSealedPresence()
        inside.name = fields.name
        inside.colour = fields.colour
        (inside.cursorX, inside.cursorY, inside.hasCursor_p) = (fields.cursorX, fields.cursorY, fields.hasCursor_p)
        inside.board = fields.board
        if fields.hasInk { inside.ink = fields.ink }
        let plain: [UInt8] = try! inside.serializedBytes()
        let sealed = Sealing.sealWithNonce(plain, key: key, nonce: nonce, associatedData: associatedData)
        return Presence(room: room, device: device, name: "", colour: 0, sealed: sealed)
    }

    /// The presence inside ``sealed``, opened with `key` and checked with the bounds of a plain
    /// presence frame (name length, a finite cursor, the ink's size). Fields outside the seal are
    /// ignored: only the sealed ones come from a holder of the key.
    ///
    /// - Throws: ``WireError/unsealed`` for a presence that is not sealed, ``WireError/tampered`` for
    ///   one that does not open with `key` in this room for this device, and the errors of a plain
    ///   presence frame for what is inside.
    public func opened(with key: RoomKey) throws(WireError) -> Presence {
        guard !sealed.isEmpty else { throw .unsealed }
        let plain = try Sealing.openWithNonce(sealed, key: key, associatedData: associatedData)
        let inside: WireSealedPresence
        do {
            inside = try WireSealedPresence(serializedBytes: plain)
        } catch {
            throw .malformed("sealed presence")
        }
        var wire = WirePresence()
        wire.room = room
        wire.device = Data(device.bytes)
        wire.name = inside.name
        wire.colour = inside.colour
        (wire.cursorX, wire.cursorY, wire.hasCursor_p) = (inside.cursorX, inside.cursorY, inside.hasCursor_p)
        wire.board = inside.board
        if inside.hasInk { wire.ink = inside.ink }
        // One definition of a valid presence: the frame decoder's.
        return try SyncCodec.decode(wire)
    }

    /// "inkwell-presence-seal/1" || 0x00 || u32(len(room)) || room || device (16 bytes): a sealed
    /// presence replayed in another room or under another device does not open.
    private var associatedData: [UInt8] {
        Sealing.associatedData("inkwell-presence-seal/1", room: room) + device.bytes
    }
}
