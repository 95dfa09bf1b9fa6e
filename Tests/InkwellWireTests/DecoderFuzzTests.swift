import Foundation
import InkwellBoard
import InkwellSync
import Testing

@testable import InkwellWire

/// Random and mutated real bytes (changes, packs, snapshots) must decode or throw ``WireError``: never crash, never hang.
@Suite struct DecoderFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["INKWELL_FUZZ_CASES"] ?? "") ?? 100_000

    @Test func hostileBytesNeverCrashTheDecoders() {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["INKWELL_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("wire fuzz: \(Self.cases) cases, INKWELL_SEED=\(seed)")
        var generator = SplitMix64(seed: seed)
        let changes = Samples.changes.map(ChangeCodec.encode)
        let packs = [
            PackCodecTests.sampleBytes(),
            PackCodecTests.sampleBytes(compression: .none),
        ]
        let snapshot = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: Cut(),
            changes: changes + [ChangeColumnsTests.withLongSeq(changes[0], seq: 1)]
        )
        let snapshots = [snapshot.encoded(compression: .none), snapshot.encoded(compression: .deflate)]
        var outcomes = (decoded: 0, rejected: 0)
        for round in 0..<Self.cases {
            let seeds = [changes, packs, snapshots][round % 3]
            var bytes: [UInt8]
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            case 1:
                bytes = seeds.randomElement(using: &generator)!
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            default:
                bytes = seeds.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 1...6, using: &generator) where !bytes.isEmpty {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                    case 2: bytes.remove(at: index)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                    }
                }
            }
            do {
                switch round % 3 {
                case 0:
                    _ = try ChangeCodec.decode(bytes, as: BoardEdit.self)
                case 1:
                    let pack = try PackCodec.decode(bytes)
                    for change in pack.changes { _ = try? ChangeCodec.decode(change, as: BoardEdit.self) }
                default:
                    let decoded = try DocumentSnapshot(decoding: bytes)
                    _ = decoded.changes
                    _ = try decoded.restore(as: BoardState.self)
                }
                outcomes.decoded += 1
            } catch {
                outcomes.rejected += 1
            }
        }
        print("wire fuzz: decoded \(outcomes.decoded), rejected \(outcomes.rejected)")
        #expect(outcomes.decoded + outcomes.rejected == Self.cases)
        #expect(outcomes.decoded > 0 && outcomes.rejected > 0)
    }
}
