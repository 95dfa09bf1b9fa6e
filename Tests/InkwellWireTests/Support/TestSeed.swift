import Foundation

/// Reads the seed from `INKWELL_SEED` or draws one, and prints it so any failure can be replayed.
func wireTestSeed(_ test: String) -> UInt64 {
    let seed =
        ProcessInfo.processInfo.environment["INKWELL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    print("\(test): seed \(seed) (set INKWELL_SEED=\(seed) to replay)")
    return seed
}
