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
    static func samplePack() -> Pack {
        Pack(
            id: PackID(high: 1, low: 2),
            entries: Samples.changes.enumerated().map {
                Pack.Entry(
                    room: $0.offset.isMultiple(of: 2) ? "room-a" : "room-b",
                    change: ChangeCodec.encode($0.element)
                )
            }
        )
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
        let bytes = PackCodec.encode(pack, compression: compression)
        #expect(try PackCodec.decode(bytes) == pack)
        #expect(try PackCodec.header(of: bytes).id == pack.id)
    }

    @Test func manySmallChangesCoalesceAndCompress() throws {
        let entries = (1...1_000 as ClosedRange<UInt64>).map { seq in
            Pack.Entry(
                room: "room",
                change: ChangeCodec.encode(
                    Samples.change(
                        Samples.alice,
                        seq,
                        [.appendPoints(Samples.stroke, points: [.init(Double(seq), 5)], pressures: nil)]
                    )
                )
            )
        }
        let pack = Pack(id: .random(), entries: entries)
        let plain = PackCodec.encode(pack, compression: .none)
        let deflated = PackCodec.encode(pack, compression: .deflate)
        #expect(
            deflated.count * 3 < plain.count,
            "repetitive ids and stamps compress well: \(plain.count) → \(deflated.count)"
        )
        #expect(try PackCodec.decode(deflated) == pack)
    }

    /// A hand-made pack from a future schema is kept aside, then decoded by code that knows it.
    @Test func aFuturePackIsRecognisedBeforeItIsOpenedAndDecodedAfterAnUpgrade() throws {
        var pack = Self.samplePack()
        pack.schemaVersion = WireSchema.current + 1
        let bytes = PackCodec.encode(pack)
        #expect(throws: WireError.futureSchema(WireSchema.current + 1)) { try PackCodec.decode(bytes) }
        #expect(try PackCodec.header(of: bytes).schemaVersion == WireSchema.current + 1)
        let upgraded = try PackCodec.decode(bytes, understanding: WireSchema.current + 1)
        #expect(upgraded.entries == pack.entries)
    }

    @Test func decompressionBombsAndLyingSizesAreRejectedWithinTheLimit() throws {
        var zeros = ByteBuffer(bytes: [UInt8](repeating: 0, count: 8 << 20))
        let bomb = try zeros.compress(with: .deflate())
        var wire = WirePack()
        wire.id = Data(PackID(high: 9, low: 9).bytes)
        wire.compression = .deflate
        wire.body = Data(bomb.readableBytesView)
        for declared in [UInt32(1_000), UInt32(4 << 20)] {
            wire.bodySize = declared
            #expect(throws: WireError.self) { try PackCodec.decode(try wire.serializedBytes()) }
        }
        wire.bodySize = UInt32(WireLimits.maximumPackBodyBytes + 1)
        #expect(throws: WireError.tooLarge("pack body")) { try PackCodec.decode(try wire.serializedBytes()) }
        var honest = try WirePack(serializedBytes: PackCodec.encode(Self.samplePack()))
        honest.bodySize += 1
        #expect(throws: WireError.invalidField("pack.body_size")) { try PackCodec.decode(try honest.serializedBytes()) }
    }

    @Test func encryptedPacksAreNotOpened() throws {
        var wire = try WirePack(serializedBytes: PackCodec.encode(Self.samplePack()))
        wire.encryption.scheme = "x25519-aesgcm"
        #expect(throws: WireError.encrypted) { try PackCodec.decode(try wire.serializedBytes()) }
    }
}
