import Foundation
import InkwellSync

/// The random-number generator for every randomised test: its whole state is one printable seed,
/// so a failure is replayed by setting `INKWELL_SEED` to the seed the test printed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var base: SplitMix64

    public init(seed: UInt64) {
        base = SplitMix64(seed: seed)
    }

    /// `INKWELL_SEED` when set, else a fresh seed; print it before using it.
    public static func seedFromEnvironment() -> UInt64 {
        ProcessInfo.processInfo.environment["INKWELL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    }

    public mutating func next() -> UInt64 { base.next() }

    /// A double in `range` from the top 53 bits: the same seed gives the same value on every platform.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) * 0x1.0p-53
    }
}
