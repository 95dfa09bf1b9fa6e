// Canonical encodings of the standard library types our states are built from.

extension UInt64: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(self) }
}

extension UInt32: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(UInt64(self)) }
}

extension UInt16: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(UInt64(self)) }
}

extension UInt8: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(UInt64(self)) }
}

extension Int64: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeSignedVarint(self) }
}

extension Int32: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeSignedVarint(Int64(self)) }
}

extension Int: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeSignedVarint(Int64(self)) }
}

extension Bool: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeVarint(self ? 1 : 0) }
}

extension Double: CanonicallyEncodable {
    /// By bit pattern, with every NaN written as the one canonical quiet NaN and -0 as +0.
    public func encode(to encoder: inout CanonicalEncoder) {
        let normalized: Double = isNaN ? .nan : (self == 0 ? 0 : self)
        encoder.writeFixed64(normalized.bitPattern)
    }
}

extension Float: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { Double(self).encode(to: &encoder) }
}

extension String: CanonicallyEncodable {
    /// UTF-8 bytes as written; two strings that differ only in Unicode normalization encode differently,
    /// exactly as they compare differently when used as keys.
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeBytes(Array(utf8)) }
}

extension Optional: CanonicallyEncodable where Wrapped: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        if let value = self {
            encoder.writeVarint(1)
            value.encode(to: &encoder)
        } else {
            encoder.writeVarint(0)
        }
    }
}

extension Array: CanonicallyEncodable where Element: CanonicallyEncodable {
    /// Arrays are ordered, so their order is part of the encoding.
    public func encode(to encoder: inout CanonicalEncoder) {
        encoder.writeVarint(UInt64(count))
        for element in self { element.encode(to: &encoder) }
    }
}

extension Set: CanonicallyEncodable where Element: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(self) }
}

extension Dictionary: CanonicallyEncodable where Key: CanonicallyEncodable, Value: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(self) }
}
