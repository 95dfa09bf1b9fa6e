import CompressNIO
import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import NIOCore
import SwiftProtobuf
import Testing

@testable import InkwellWire

@Suite struct PackCodecTests {
    /// Alice's sample changes, as one pack of room-a.
    static func samplePack() -> Pack {
        Pack(room: "room-a", changes: Samples.changes.filter { $0.id.replica == Samples.alice }.map(ChangeCodec.encode))
    }

    static func sampleBytes(compression: PackCodec.Compression = .deflate) -> [UInt8] {
        PackCodec.encode(samplePack(), signedBy: Samples.aliceKey, compression: compression)
    }

    @Test func directBodyEncodingWritesTheGeneratedMessagesBytes() {
        let seed: UInt64 = 47
        var generator = SplitMix64(seed: seed)
        let rooms = ["", "r", "room-é", String(repeating: "x", count: 200)]
        for _ in 0..<300 {
            let entries = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                (
                    room: rooms.randomElement(using: &generator)!,
                    change: (0..<[0, 1, 127, 128, 300].randomElement(using: &generator)!).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                )
            }
            #expect(PackCodec.body(entries) == PackCodec.generatedBody(entries), "seed \(seed)")
        }
    }

    @Test func directBodyReadingAgreesWithTheGeneratedDecoderOrDefersToIt() throws {
        let seed: UInt64 = 53
        var generator = SplitMix64(seed: seed)
        let rooms = ["", "r", "room-é", String(repeating: "x", count: 200)]
        func generated(_ bytes: [UInt8]) -> [(room: String, change: [UInt8])]? {
            (try? WirePackBody(serializedBytes: bytes))?.entries.map { (room: $0.room, change: Array($0.change)) }
        }
        func same(_ a: [(room: String, change: [UInt8])], _ b: [(room: String, change: [UInt8])]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.room == $1.room && $0.change == $1.change }
        }
        for round in 0..<2_000 {
            let entries = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                (
                    room: rooms.randomElement(using: &generator)!,
                    change: (0..<[0, 1, 127, 128, 300].randomElement(using: &generator)!).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                )
            }
            var bytes = PackCodec.generatedBody(entries)
            let direct = try #require(WireReader.packBody(bytes), "seed \(seed), round \(round)")
            #expect(same(direct, entries), "seed \(seed), round \(round)")
            // Hostile variants: a flipped byte, a cut, a stray field. Whatever the direct reader accepts,
            // the generated decoder reads the same way.
            guard !bytes.isEmpty else { continue }
            switch round % 3 {
            case 0:
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(
                    in: 1...255,
                    using: &generator
                )
            case 1: bytes.removeLast(Int.random(in: 1...bytes.count, using: &generator))
            default: bytes += [0x10, 0x01]
            }
            if let direct = WireReader.packBody(bytes) {
                let reference = try #require(generated(bytes), "seed \(seed), round \(round): \(bytes)")
                #expect(same(direct, reference), "seed \(seed), round \(round)")
            }
        }
    }

    @Test(arguments: [PackCodec.Compression.none, .deflate])
    func packsRoundTrip(compression: PackCodec.Compression) throws {
        let pack = Self.samplePack()
        let bytes = PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: compression)
        let decoded = try PackCodec.decode(bytes, room: "room-a")
        #expect(decoded.pack == pack)
        #expect(decoded.author == Samples.alice)
        #expect(decoded.id == PackID(of: bytes))
        #expect(try PackCodec.header(of: bytes).id == decoded.id)
        // Deterministic: the same changes and key give the same bytes, so a pack pushed again is stored once.
        #expect(PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: compression) == bytes)
    }

    /// Every byte of a pack is signed or is the signature: a flipped bit anywhere, a byte cut off or
    /// added, is refused, never read as another pack.
    @Test func anyAlterationOfASignedPackIsRefused() throws {
        let seed: UInt64 = 71
        var generator = SplitMix64(seed: seed)
        for compression in [PackCodec.Compression.none, .deflate] {
            let bytes = Self.sampleBytes(compression: compression)
            _ = try PackCodec.decode(bytes, room: "room-a")
            for index in bytes.indices {
                var flipped = bytes
                flipped[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                #expect(throws: WireError.self, "seed \(seed), byte \(index)") {
                    try PackCodec.decode(flipped, room: "room-a")
                }
            }
            #expect(throws: WireError.self) { try PackCodec.decode(Array(bytes.dropLast()), room: "room-a") }
            #expect(throws: WireError.self) { try PackCodec.decode(bytes + [0], room: "room-a") }
            #expect(throws: WireError.self) { try PackCodec.decode(bytes + [0x10, 0x01], room: "room-a") }
        }
    }

    /// The replica of a key is the first half of a domain-separated SHA-256 of it, as the page derives it.
    @Test func aKeysReplicaIsDerivedFromItsPublicKey() throws {
        let key = try AuthorKey(rawRepresentation: [UInt8](repeating: 0x01, count: 32))
        // RFC 8032's public key for that seed is fixed; so is its replica (Conformance/wire-js.json agrees).
        #expect(WireHex.encode(key.publicKey) == "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c")
        #expect(key.replica.description == "a8ebaa5718de52becf39e57ab2a40c79")
        #expect(ReplicaID(authorKey: key.publicKey) == key.replica)
        #expect(try AuthorKey(rawRepresentation: key.rawRepresentation).replica == key.replica)
        #expect(throws: WireError.self) { try AuthorKey(rawRepresentation: [1, 2, 3]) }
    }

    @Test func manySmallChangesCoalesceAndCompress() throws {
        let changes = (1...1_000 as ClosedRange<UInt64>).map { seq in
            ChangeCodec.encode(
                Samples.change(
                    Samples.alice,
                    seq,
                    [.appendPoints(Samples.stroke, points: [.init(Double(seq), 5)], pressures: nil)]
                )
            )
        }
        let pack = Pack(room: "room", changes: changes)
        let plain = PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: .none)
        let deflated = PackCodec.encode(pack, signedBy: Samples.aliceKey, compression: .deflate)
        #expect(
            deflated.count * 3 < plain.count,
            "repetitive ids and stamps compress well: \(plain.count) → \(deflated.count)"
        )
        #expect(try PackCodec.decode(deflated).pack == pack)
    }

    /// A hand-made pack from a future schema is kept aside, then decoded by code that knows it.
    @Test func aFuturePackIsRecognisedBeforeItIsOpenedAndDecodedAfterAnUpgrade() throws {
        var pack = Self.samplePack()
        pack.schemaVersion = WireSchema.current + 1
        let bytes = PackCodec.encode(pack, signedBy: Samples.aliceKey)
        #expect(throws: WireError.futureSchema(WireSchema.current + 1)) { try PackCodec.decode(bytes) }
        #expect(try PackCodec.header(of: bytes).schemaVersion == WireSchema.current + 1)
        let upgraded = try PackCodec.decode(bytes, understanding: WireSchema.current + 1)
        #expect(upgraded.changes == pack.changes)
    }

    @Test func decompressionBombsAndLyingSizesAreRejectedWithinTheLimit() throws {
        var zeros = ByteBuffer(bytes: [UInt8](repeating: 0, count: 8 << 20))
        let bomb = try zeros.compress(with: .deflate())
        var wire = WirePack()
        wire.compression = .deflate
        wire.body = Data(bomb.readableBytesView)
        wire.room = "room-a"
        // Signed by their author, so that it is the body, not the signature, that is judged.
        for declared in [UInt32(1_000), UInt32(4 << 20)] {
            wire.bodySize = declared
            #expect(throws: WireError.self) { try PackCodec.decode(try Self.signed(wire)) }
        }
        wire.bodySize = UInt32(WireLimits.maximumPackBodyBytes + 1)
        #expect(throws: WireError.tooLarge("pack body")) { try PackCodec.decode(try Self.signed(wire)) }
        var honest = try WirePack(serializedBytes: Self.sampleBytes())
        honest.bodySize += 1
        #expect(throws: WireError.invalidField("pack.body_size")) { try PackCodec.decode(try Self.signed(honest)) }
    }

    @Test func encryptedPacksAreNotOpened() throws {
        var wire = try WirePack(serializedBytes: Self.sampleBytes())
        wire.encryption.scheme = "x25519-aesgcm"
        #expect(throws: WireError.encrypted) { try PackCodec.decode(try Self.signed(wire)) }
    }

    /// `wire` as `key` would sign it: what an author with a real key can send, however hostile.
    static func signed(_ wire: WirePack, by key: AuthorKey = Samples.aliceKey) throws -> [UInt8] {
        var wire = wire
        wire.author = Data(key.publicKey)
        wire.signature = Data()
        let unsigned: [UInt8] = try wire.serializedBytes()
        return unsigned + PackCodec.signatureKey + key.sign(PackCodec.signingInput(unsigned[...]))
    }
}
