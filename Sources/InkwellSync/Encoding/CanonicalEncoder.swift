/// Writes a deterministic byte encoding of a state, so that replicas can be compared byte for byte.
///
/// Two equal states always encode to the same bytes: unordered collections are written sorted by
/// the encoding of their keys, integers as LEB128 varints, floating point by bit pattern.
/// It is a fingerprint format, not a wire format: it has no schema version and is never decoded.
public struct CanonicalEncoder: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Zig-zag encodes so that small negative numbers stay small.
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Big-endian, written as one run: boards encode every coordinate this way.
    public mutating func writeFixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Length-prefixed raw bytes.
    public mutating func writeBytes(_ raw: some Collection<UInt8>) {
        writeVarint(UInt64(raw.count))
        bytes.append(contentsOf: raw)
    }

    public mutating func write(_ value: some CanonicallyEncodable) {
        value.encode(to: &self)
    }

    /// Writes the elements sorted by their own encodings, so iteration order never leaks into the bytes.
    ///
    /// - Complexity: O(n log n) in the number of elements.
    public mutating func writeUnordered<Element: CanonicallyEncodable>(_ elements: some Collection<Element>) {
        writeVarint(UInt64(elements.count))
        for encoded in elements.map(\.canonicalBytes).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            bytes.append(contentsOf: encoded)
        }
    }

    /// Writes key/value pairs sorted by the encoding of the key.
    public mutating func writeUnordered<Key: CanonicallyEncodable, Value: CanonicallyEncodable>(
        _ dictionary: [Key: Value]
    ) {
        writeVarint(UInt64(dictionary.count))
        let entries = dictionary.map { (key: $0.key.canonicalBytes, value: $0.value) }
        for entry in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            bytes.append(contentsOf: entry.key)
            entry.value.encode(to: &self)
        }
    }
}

/// A value with one canonical byte encoding.
public protocol CanonicallyEncodable {
    func encode(to encoder: inout CanonicalEncoder)
}

extension CanonicallyEncodable {
    /// The canonical bytes of this value alone.
    public var canonicalBytes: [UInt8] {
        var encoder = CanonicalEncoder()
        encode(to: &encoder)
        return encoder.bytes
    }
}

extension CanonicalEncoder {
    /// The 64-bit FNV-1a hash of the bytes written: a compact fingerprint for comparing replicas and
    /// implementations. Not cryptographic: it detects accidents, not adversaries.
    public var fingerprint: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
