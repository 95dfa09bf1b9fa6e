public import InkwellSync

extension ModelDocument: CanonicallyEncodable {
    /// Counters sorted by name, each total as its high and low words, then the registers with the
    /// stamps of their winning writes (removals included). The set of changes applied is left out: it
    /// is not what the document says.
    public func encode(to encoder: inout CanonicalEncoder) {
        encoder.writeVarint(UInt64(totals.count))
        for (field, total) in totals.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            encoder.writeBytes(field)
            encoder.writeSignedVarint(Int64(truncatingIfNeeded: total >> 64))
            encoder.writeVarint(UInt64(truncatingIfNeeded: total))
        }
        registers.encode(to: &encoder)
    }

    /// The FNV-1a hash of the canonical encoding, as 16 hex digits.
    public var canonicalHash: String {
        var encoder = CanonicalEncoder()
        encode(to: &encoder)
        let digits = String(encoder.fingerprint, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
