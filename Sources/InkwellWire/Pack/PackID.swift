import Crypto
import Foundation

/// A pack's identity: the SHA-256 of its encoded bytes.
///
/// Derived, never chosen: the server and every receiver compute it from what they hold, so no client
/// can make another pack's bytes look "already stored" by pushing a guessed id first. Pushing the same
/// bytes twice stores them once.
public struct PackID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 bytes as four big-endian words, so that comparing and hashing stay cheap.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The id of `bytes`, an encoded pack.
    ///
    /// - Complexity: O(bytes).
    public init(of bytes: [UInt8]) {
        let digest = SHA256.hash(data: bytes)
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        digest.withUnsafeBytes { raw in
            func word(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 << 8 | UInt64(raw[at + $1]) } }
            words = (word(0), word(8), word(16), word(24))
        }
        self.words = words
    }

    /// Reads exactly thirty-two bytes; `nil` for any other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        let all = Array(bytes)
        func word(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 << 8 | UInt64(all[at + $1]) } }
        self.words = (word(0), word(8), word(16), word(24))
    }

    /// The thirty-two bytes, big-endian.
    public var bytes: [UInt8] {
        [words.0, words.1, words.2, words.3].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) }
        }
    }

    public static func == (lhs: PackID, rhs: PackID) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    public static func < (lhs: PackID, rhs: PackID) -> Bool { lhs.words < rhs.words }

    /// 64 lowercase hex digits.
    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
