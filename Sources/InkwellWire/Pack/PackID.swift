/// A pack's identity, chosen by the client that made it: pushing the same pack twice stores it once.
public struct PackID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(using generator: inout some RandomNumberGenerator) {
        self.init(high: generator.next(), low: generator.next())
    }

    public static func random() -> PackID {
        var generator = SystemRandomNumberGenerator()
        return PackID(using: &generator)
    }

    /// Reads exactly sixteen bytes, big-endian.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let words = bytes.enumerated().reduce(into: (UInt64(0), UInt64(0))) { words, element in
            if element.offset < 8 {
                words.0 = words.0 << 8 | UInt64(element.element)
            } else {
                words.1 = words.1 << 8 | UInt64(element.element)
            }
        }
        self.init(high: words.0, low: words.1)
    }

    public var bytes: [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> UInt64(56 - 8 * ($0 % 8))) }
    }

    public static func < (lhs: PackID, rhs: PackID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    public var description: String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
