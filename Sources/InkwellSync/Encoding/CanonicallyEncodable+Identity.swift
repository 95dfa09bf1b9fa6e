// Canonical encodings of identities and clocks: fixed widths where values are random, varints elsewhere.

extension ReplicaID: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        encoder.writeFixed64(high)
        encoder.writeFixed64(low)
    }
}

extension Stamp: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(rawValue) }
}

extension ChangeID: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        replica.encode(to: &encoder)
        encoder.writeVarint(seq)
    }
}

extension OpStamp: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        stamp.encode(to: &encoder)
        change.encode(to: &encoder)
        encoder.writeVarint(UInt64(index))
    }
}
