import Foundation
import InkwellBoard
import InkwellSync
import Testing

@testable import InkwellWire

/// Random and mutated real bytes (changes, packs, snapshots) must decode or throw ``WireError``: never crash, never
/// hang; and what decodes must encode back to what decodes the same.
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
        var outcomes = Outcomes()
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
            // Whatever decodes must encode back to bytes that decode and encode to themselves: a decoder that
            // accepts what its encoder cannot reproduce would let two replicas read one change two ways.
            do throws(WireError) {
                switch round % 3 {
                case 0:
                    let change = try ChangeCodec.decode(bytes, as: BoardEdit.self)
                    Self.expectRoundTrip(change, bytes: bytes, seed: seed, round: round, outcomes: &outcomes)
                case 1:
                    let pack = try PackCodec.decode(bytes)
                    for inner in pack.changes {
                        guard let change = try? ChangeCodec.decode(inner, as: BoardEdit.self) else { continue }
                        Self.expectRoundTrip(change, bytes: bytes, seed: seed, round: round, outcomes: &outcomes)
                    }
                default:
                    let decoded = try DocumentSnapshot(decoding: bytes)
                    let again = try DocumentSnapshot(decoding: decoded.encoded(compression: .none))
                    let same =
                        again.room == decoded.room && again.document == decoded.document && again.cut == decoded.cut
                        && again.changes == decoded.changes
                    #expect(
                        same,
                        "a snapshot decoded from \(Self.hex(bytes)) reads otherwise once encoded (INKWELL_SEED=\(seed), round \(round))"
                    )
                    outcomes.roundTrips += 1
                    _ = try decoded.restore(as: BoardState.self)
                }
                outcomes.decoded += 1
            } catch {
                outcomes.rejected += 1
            }
        }
        print(
            "wire fuzz: decoded \(outcomes.decoded) (\(outcomes.roundTrips) round trips checked), rejected \(outcomes.rejected)"
        )
        #expect(outcomes.decoded > 0 && outcomes.rejected > 0 && outcomes.roundTrips > 0)
    }

    static func expectRoundTrip(
        _ change: Change<BoardEdit>,
        bytes: [UInt8],
        seed: UInt64,
        round: Int,
        outcomes: inout Outcomes
    ) {
        // Compared as the bytes they encode to: a decoded value may hold a NaN (the board drops it when it
        // applies the change), which equals nothing, itself included.
        let encoded = ChangeCodec.encode(change)
        let again = try? ChangeCodec.decode(encoded, as: BoardEdit.self)
        #expect(
            again.map(ChangeCodec.encode) == encoded,
            "a change decoded from \(hex(bytes)) reads otherwise once encoded (INKWELL_SEED=\(seed), round \(round))"
        )
        outcomes.roundTrips += 1
    }

    struct Outcomes {
        var decoded = 0
        var rejected = 0
        var roundTrips = 0
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
