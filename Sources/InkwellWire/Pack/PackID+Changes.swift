public import InkwellSync

extension PackID {
    /// The id of the pack that holds exactly `changes` of `room`, whatever their order: a pack pushed again
    /// after its ack was lost carries the same id, so the server stores it once. The browser client
    /// derives the same ids (`Conformance/wire.json`, `packIds`).
    ///
    /// The 128-bit FNV-1a hash of `inkwell-pack/1`, the room's UTF-8 bytes and, for each change in
    /// `(replica, seq)` order, its 16 replica bytes and its seq as 8 big-endian bytes (all fields
    /// length-prefixed or fixed-size, so different inputs never share an encoding). Not cryptographic:
    /// replica ids are random, so distinct packs collide only by accident, with probability ~2⁻¹²⁸.
    ///
    /// - Complexity: O(c log c) for c changes.
    public init(room: String, changes: some Collection<ChangeID>) {
        var hash = FNV1a128()
        hash.combine(Array("inkwell-pack/1".utf8))
        hash.combine(UInt64(room.utf8.count))
        hash.combine(Array(room.utf8))
        hash.combine(UInt64(changes.count))
        for change in changes.sorted() {
            hash.combine(change.replica.bytes)
            hash.combine(change.seq)
        }
        self.init(high: UInt64(truncatingIfNeeded: hash.value >> 64), low: UInt64(truncatingIfNeeded: hash.value))
    }
}

/// FNV-1a with 128-bit state (offset basis and prime from the FNV reference), byte at a time.
package struct FNV1a128: Sendable {
    package init() {}

    private static let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B
    package private(set) var value: UInt128 = 0x6C62_272E_07BB_0142_62B8_2175_6295_C58D

    package mutating func combine(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt128(byte)
            value = value &* Self.prime
        }
    }

    package mutating func combine(_ number: UInt64) {
        combine((0..<8).map { UInt8(truncatingIfNeeded: number >> (56 - 8 * $0)) })
    }
}
