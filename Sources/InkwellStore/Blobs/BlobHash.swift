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

    public var description: String { hex }

    public static func < (lhs: BlobHash, rhs: BlobHash) -> Bool { lhs.hex < rhs.hex }
}
