import Foundation
import InkwellBoard
import InkwellSync
import SwiftProtobuf
import Testing

@testable import InkwellWire

@Suite struct SealedPackTests {
    static let key = SealVectors.key

    /// Packs of every size the product sends: none, one change, a pen-up's few, and a large catch-up.
    static let sizes: [Int] = [0, 1, 6, 3_000]

    @Test(arguments: [PackCodec.Compression.none, .deflate], sizes)
    func sealedPacksRoundTrip(compression: PackCodec.Compression, count: Int) throws {
        let changes = SealVectors.changes(count, seed: UInt64(count))
        let pack = Pack(room: "room-a", changes: changes)
        let bytes = PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: compression, sealedWith: Self.key)
        let decoded = try PackCodec.decode(bytes, room: "room-a", key: Self.key)
        #expect(decoded.pack == pack)
        #expect(decoded.author == Samples.alice)
        #expect(decoded.id == PackID(of: bytes))
        let wire = try WirePack(serializedBytes: bytes)
        #expect(wire.encryption.scheme == "aes-256-gcm")
        #expect(Array(wire.encryption.keyID) == Self.key.id)
        #expect(wire.encryption.nonce.count == 12)
        // The body is the plain pack's body, sealed: as long, plus the tag.
        let plain = try WirePack(
            serializedBytes: PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: compression)
        )
        #expect(wire.body.count == plain.body.count + 16)
        #expect(wire.bodySize == plain.bodySize && wire.compression == plain.compression)
        if count > 0 { #expect(wire.body.prefix(plain.body.count) != plain.body) }
        // The envelope's header is readable without the key, and a relay accepts it.
        #expect(try PackCodec.header(of: bytes).room == "room-a")
        let validated = try PackCodec.validate(bytes, room: "room-a")
        #expect(validated.author == Samples.alice && validated.latestStamp == nil && validated.id == decoded.id)
    }

    @Test func twoSealsOfTheSamePackDiffer() throws {
        let pack = PackCodecTests.samplePack()
        let first = PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key)
        let second = PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key)
        #expect(first != second)
        let nonces = try [first, second].map { try WirePack(serializedBytes: $0).encryption.nonce }
        #expect(nonces[0] != nonces[1])
        #expect(try PackCodec.decode(first, key: Self.key).pack == PackCodec.decode(second, key: Self.key).pack)
        // Under one nonce, sealing is deterministic: what the vectors rely on.
        let nonce = SealVectors.nonce(1)
        #expect(
            PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key, nonce: nonce)
                == PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key, nonce: nonce)
        )
    }

    @Test func aSealedPackNeedsTheRoomsKeyAndAnEncryptedRoomRefusesPlainPacks() throws {
        let pack = PackCodecTests.samplePack()
        let sealed = PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key)
        #expect(throws: WireError.encrypted) { try PackCodec.decode(sealed, room: "room-a") }
        #expect(throws: WireError.wrongKey) { try PackCodec.decode(sealed, room: "room-a", key: SealVectors.otherKey) }
        let plain = PackCodec.encode(pack, signedBy: Samples.aliceKey)
        #expect(throws: WireError.unsealed) { try PackCodec.decode(plain, room: "room-a", key: Self.key) }
        #expect(try PackCodec.decode(plain, room: "room-a").pack == pack)
    }

    /// The schema is checked before the seal, as for a plain pack: a future pack is kept aside unopened.
    @Test func aFutureSealedPackIsRecognisedBeforeItIsOpened() throws {
        var pack = PackCodecTests.samplePack()
        pack.schemaVersion = WireSchema.current + 1
        let bytes = PackCodec.encode(pack, signedBy: Samples.aliceKey, sealedWith: Self.key)
        #expect(throws: WireError.futureSchema(WireSchema.current + 1)) { try PackCodec.decode(bytes, key: Self.key) }
        #expect(try PackCodec.decode(bytes, understanding: WireSchema.current + 1, key: Self.key).pack == pack)
    }

    /// Every byte of a sealed pack is signed, sealed or the signature: any flipped bit is refused.
    @Test func anyAlterationOfASealedPackIsRefused() throws {
        let seed = wireTestSeed("anyAlterationOfASealedPackIsRefused")
        var generator = SplitMix64(seed: seed)
        for compression in [PackCodec.Compression.none, .deflate] {
            let bytes = PackCodec.encode(
                PackCodecTests.samplePack(),
                signedBy: Samples.aliceKey,
                compression: compression,
                sealedWith: Self.key
            )
            for index in bytes.indices {
                var flipped = bytes
                flipped[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                #expect(throws: WireError.self, "seed \(seed), byte \(index)") {
                    try PackCodec.decode(flipped, room: "room-a", key: Self.key)
                }
            }
        }
    }

    /// A relay holds no key: it checks the signer, the room and that the sealed body is no larger than
    /// its declared size allows, so it never stores an absurd body for a small pack.
    @Test func aRelayValidatesSealedPacksWithoutTheKey() throws {
        let refused = try SealVectors.refusedPacks()
        func bytes(_ name: String) throws -> [UInt8] {
            try WireHex.decode(try #require(refused.first { $0.name == name }).json["bytes"])
        }
        let honest = PackCodec.encode(PackCodecTests.samplePack(), signedBy: Samples.aliceKey, sealedWith: Self.key)
        #expect(try PackCodec.validate(honest, room: "room-a").author == Samples.alice)
        #expect(throws: WireError.wrongRoom) { try PackCodec.validate(honest, room: "room-b") }
        #expect(throws: WireError.tooLarge("sealed pack body")) {
            try PackCodec.validate(try bytes("a sealed body far larger than its declared size"), room: SealVectors.room)
        }
        #expect(throws: WireError.tooLarge("pack body")) {
            try PackCodec.validate(try bytes("a declared size over 64 MiB"), room: SealVectors.room)
        }
        #expect(throws: WireError.tooLarge("pack body")) {
            try PackCodec.validate(honest, room: "room-a", maximumBodyBytes: 100)
        }
        #expect(throws: WireError.unsupportedEncryption) {
            try PackCodec.validate(try bytes("an unknown scheme"), room: SealVectors.room)
        }
        #expect(throws: WireError.invalidField("pack.encryption.nonce")) {
            try PackCodec.validate(try bytes("a nonce of 11 bytes"), room: SealVectors.room)
        }
        #expect(throws: WireError.badSignature) {
            try PackCodec.validate(try bytes("a flipped ciphertext bit"), room: SealVectors.room)
        }
        // What only the key's holders can see passes the relay: it is theirs to refuse.
        for name in ["a flipped tag bit, signed again", "another replica's change sealed inside"] {
            _ = try PackCodec.validate(try bytes(name), room: SealVectors.room)
        }
    }

    /// The bound is exact: a sealed body of exactly the most a declared size allows passes, one byte
    /// more is refused.
    @Test func theRelaysBoundOnASealedBodyIsDeflatesWorstCasePlusTheTag() throws {
        let seed = wireTestSeed("theRelaysBoundOnASealedBodyIsDeflatesWorstCasePlusTheTag")
        var generator = SplitMix64(seed: seed)
        #expect(PackCodec.maximumSealedBodyBytes(bodySize: 0) == 21)
        #expect(PackCodec.maximumSealedBodyBytes(bodySize: 1_000) == 1_000 + 125 + 16 + 5 + 16)
        let wire = try WirePack(
            serializedBytes: PackCodec.encode(
                PackCodecTests.samplePack(),
                signedBy: Samples.aliceKey,
                sealedWith: Self.key
            )
        )
        for size in [0, 1, 100, 4_096] {
            let most = PackCodec.maximumSealedBodyBytes(bodySize: size)
            for (length, accepted) in [(most, true), (most + 1, false)] {
                var edited = wire
                edited.bodySize = UInt32(size)
                edited.body = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                let bytes = try PackCodecTests.signed(edited)
                if accepted {
                    #expect(try PackCodec.validate(bytes, room: "room-a").latestStamp == nil, "seed \(seed)")
                    #expect(throws: WireError.tampered) { try PackCodec.decode(bytes, key: Self.key) }
                } else {
                    #expect(throws: WireError.tooLarge("sealed pack body")) {
                        try PackCodec.validate(bytes, room: "room-a")
                    }
                    #expect(throws: WireError.tooLarge("sealed pack body")) {
                        try PackCodec.decode(bytes, key: Self.key)
                    }
                }
            }
        }
        // Deflate's worst case is real: zlib's stored blocks of random bytes fit the bound at every size.
        for size in [1, 100, 70_000] {
            let random = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for level in [1, 9] as [Int32] {
                let deflated = PackCodec.deflate(random, .deflate(level: level))
                #expect(deflated.count + 16 <= PackCodec.maximumSealedBodyBytes(bodySize: size), "seed \(seed)")
            }
        }
    }

    /// Seeded random packs (changes, rooms, compression, keys) round trip, and open with no other key.
    @Test func randomSealedPacksRoundTrip() throws {
        let seed = wireTestSeed("randomSealedPacksRoundTrip")
        var generator = SplitMix64(seed: seed)
        let rooms = ["r", "room-a", "Kq3Zt0aLw9PxYbN2mR7sVc", String(repeating: "x", count: 128)]
        for round in 0..<150 {
            let key = RoomKey.generate(using: &generator)
            let author = AuthorKey(using: &generator)
            let changes = SealVectors.changes(
                Int.random(in: 0...20, using: &generator),
                seed: generator.next(),
                by: author
            )
            let pack = Pack(room: rooms.randomElement(using: &generator)!, changes: changes)
            let compression = [PackCodec.Compression.none, .deflate].randomElement(using: &generator)!
            let bytes = PackCodec.encode(pack, signedBy: author, compression: compression, sealedWith: key)
            let decoded = try PackCodec.decode(bytes, room: pack.room, key: key)
            #expect(decoded.pack == pack, "seed \(seed), round \(round)")
            #expect(decoded.author == author.replica, "seed \(seed), round \(round)")
            let otherKey = RoomKey.generate(using: &generator)
            #expect(throws: WireError.wrongKey, "seed \(seed), round \(round)") {
                try PackCodec.decode(bytes, room: pack.room, key: otherKey)
            }
            _ = try PackCodec.validate(bytes, room: pack.room)
        }
    }
}
