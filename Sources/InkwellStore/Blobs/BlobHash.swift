/// The SHA-256 of a blob's bytes, as 64 lowercase hex digits: the blob's name everywhere (DESIGN §5).
public struct BlobHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hex: String

    /// Accepts 64 hex digits in either case; `nil` for anything else.
    public init?(hex: some StringProtocol) {
        let lowered = hex.lowercased()
        guard lowered.utf8.count == 64,
            lowered.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.hex = lowered
    }

    /// The name of the bytes whose SHA-256 is `digest`; nil unless `digest` is 32 bytes.
    public init?(digest: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        guard hex.count == 64 else { return nil }
        self.hex = String(decoding: hex, as: UTF8.self)
    }

    /// The 32 bytes of the SHA-256 that ``hex`` spells.
    public var digest: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var high: UInt8?
        for digit in hex.utf8 {
            let value = digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    public var description: String { hex }

    public static func < (lhs: BlobHash, rhs: BlobHash) -> Bool { lhs.hex < rhs.hex }
}
