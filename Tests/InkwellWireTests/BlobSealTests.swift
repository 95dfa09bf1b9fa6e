import Foundation
import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct BlobSealTests {
    static let key = SealVectors.key

    @Test(arguments: [0, 1, 15, 16, 17, 1_000, 1 << 20])
    func blobsRoundTrip(size: Int) throws {
        var generator = SplitMix64(seed: UInt64(size))
        let plain = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let sealed = BlobSeal.seal(plain, room: "room-a", key: Self.key)
        #expect(sealed.count == 12 + size + 16)
        #expect(try BlobSeal.open(sealed, room: "room-a", key: Self.key) == plain)
        if size >= 16 { #expect(Array(sealed[12..<28]) != Array(plain.prefix(16))) }
    }

    @Test func twoSealsOfTheSameBlobDifferAndHaveDifferentAddresses() throws {
        let plain = Array("the same image".utf8)
        let first = BlobSeal.seal(plain, room: "room-a", key: Self.key)
        let second = BlobSeal.seal(plain, room: "room-a", key: Self.key)
        #expect(first != second)
        #expect(PackID(of: first) != PackID(of: second))
        #expect(
            try BlobSeal.open(first, room: "room-a", key: Self.key)
                == BlobSeal.open(second, room: "room-a", key: Self.key)
        )
    }

    /// A sealed blob opens only with the room's key, in its room, unaltered.
    @Test func anAlteredOrMovedBlobIsRefused() throws {
        let sealed = BlobSeal.seal(Array(0..<100), room: "room-a", key: Self.key)
        #expect(throws: WireError.tampered) { try BlobSeal.open(sealed, room: "room-b", key: Self.key) }
        #expect(throws: WireError.tampered) { try BlobSeal.open(sealed, room: "room-a", key: SealVectors.otherKey) }
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x40
            #expect(throws: WireError.tampered, "byte \(index)") {
                try BlobSeal.open(flipped, room: "room-a", key: Self.key)
            }
            #expect(throws: WireError.tampered, "cut at \(index)") {
                try BlobSeal.open(Array(sealed.prefix(index)), room: "room-a", key: Self.key)
            }
        }
        // A presence sealed for the same room is not a blob: each kind has its own associated data.
        let presence = Presence(room: "room-a", device: Samples.alice, name: "x", colour: 1).sealed(with: Self.key)
        #expect(throws: WireError.tampered) { try BlobSeal.open(presence.sealed, room: "room-a", key: Self.key) }
    }
}
