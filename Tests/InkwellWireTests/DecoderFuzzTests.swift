import Foundation
import InkwellBoard
import InkwellFuzzing
import InkwellSync
import Testing

@testable import InkwellWire

/// Random and mutated real bytes (changes, packs, snapshots, frames, interop messages) must decode or be
/// refused cleanly: never crash, never hang; and what decodes must encode back to what decodes the same.
/// The checks are the fuzzers' own (``FuzzTarget``); libFuzzer runs them guided by coverage.
@Suite struct DecoderFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["INKWELL_FUZZ_CASES"] ?? "") ?? 100_000

    /// Every target of the fuzzers in turn, on random bytes, cut seeds and mutated seeds of the corpus.
    @Test func hostileBytesNeverCrashTheDecoders() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["INKWELL_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("wire fuzz: \(Self.cases) cases, INKWELL_SEED=\(seed)")
        var generator = SplitMix64(seed: seed)
        let seeds = try FuzzCorpusTests.seeds()
        var outcomes: [FuzzTarget: Outcomes] = [:]
        for round in 0..<Self.cases {
            let target = FuzzTarget.allCases[round % FuzzTarget.allCases.count]
            let inputs = try #require(seeds[target]?.map(\.bytes))
            var bytes: [UInt8]
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            case 1:
                bytes = inputs.randomElement(using: &generator)!
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            case 2:
                // As is: a signed pack decodes only whole, and what it holds must round-trip too.
                bytes = inputs.randomElement(using: &generator)!
            default:
                bytes = inputs.randomElement(using: &generator)!
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
            switch target.check(bytes) {
            case .rejected: outcomes[target, default: Outcomes()].rejected += 1
            case .decoded(let roundTrips):
                outcomes[target, default: Outcomes()].decoded += 1
                outcomes[target, default: Outcomes()].roundTrips += roundTrips
            case .failed(let reason): Issue.record("\(reason) (INKWELL_SEED=\(seed), round \(round))")
            }
        }
        for target in FuzzTarget.allCases {
            let outcome = outcomes[target] ?? Outcomes()
            print(
                "wire fuzz \(target.rawValue): decoded \(outcome.decoded) (\(outcome.roundTrips) round trips checked), rejected \(outcome.rejected)"
            )
            // Both ways, or the mutations never reach past the decoder's first check (or never reach it).
            #expect(outcome.decoded > 0 && outcome.rejected > 0, "\(target.rawValue): \(outcome)")
        }
    }

    struct Outcomes {
        var decoded = 0
        var rejected = 0
        var roundTrips = 0
    }
}
