import InkwellTesting

/// A seed for a randomised test: `INKWELL_SEED` replays one. Printed with the test's name.
func seed(_ test: String) -> UInt64 {
    let seed = SeededGenerator.seedFromEnvironment()
    print("\(test): seed \(seed) (INKWELL_SEED=\(seed) replays)")
    return seed
}
