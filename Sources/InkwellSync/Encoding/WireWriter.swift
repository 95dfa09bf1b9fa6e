/// Protocol-buffer bytes written straight into one array.
///
/// Encoding a change is on the path of every edit. Through the generated messages it costs a heap
/// object and a `Data` per nested message, and the sizes of nested messages are computed once per
/// level; written directly it costs a few array appends (BENCHMARKS.md, "Side by side with Yrs and
/// Loro"). Callers write what swift-protobuf writes for the same message: proto3 rules, fields in
/// field-number order, default values left out. The wire module's and the board's codec tests check the two agree byte for byte.
@frozen public struct WireWriter {
    /// What has been written so far.
    public var bytes: [UInt8] { storage }
    @usableFromInline var storage: [UInt8] = []

    @inlinable public init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Runs `body` on a writer that appends to `bytes`, which keep their storage: a caller that
    /// reuses one array for many small pieces allocates once.
    @inlinable public static func append(to bytes: inout [UInt8], _ body: (inout WireWriter) -> Void) {
        var writer = WireWriter(capacity: 0)
        swap(&writer.storage, &bytes)
        body(&writer)
        swap(&writer.storage, &bytes)
    }

    @inlinable public mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        storage.append(UInt8(value))
    }

    /// A field's key: its number and wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32).
    @inlinable public mutating func key(_ field: UInt64, _ wireType: UInt64) {
        varint(field << 3 | wireType)
    }

    @inlinable public mutating func fixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            storage.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    @inlinable public mutating func fixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            storage.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// A varint field, left out when it holds 0 (proto3 writes no default values).
    @inlinable public mutating func varintField(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        key(field, 0)
        varint(value)
    }

    /// A fixed32 field, left out when it holds 0.
    @inlinable public mutating func fixed32Field(_ field: UInt64, _ value: UInt32) {
        guard value != 0 else { return }
        key(field, 5)
        fixed32(value)
    }

    /// A fixed64 field (or a double's bit pattern), left out when it holds 0.
    @inlinable public mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        key(field, 1)
        fixed64(value)
    }

    /// A length-delimited field: storage, a string's UTF-8, or an encoded message.
    @inlinable public mutating func field(_ field: UInt64, _ value: some Collection<UInt8>) {
        key(field, 2)
        varint(UInt64(value.count))
        storage.append(contentsOf: value)
    }

    /// The sixteen storage of a replica id, as ``ReplicaID/storage`` orders them, as a storage field.
    @inlinable public mutating func field(_ field: UInt64, _ replica: ReplicaID) {
        key(field, 2)
        varint(16)
        bigEndian(replica.high)
        bigEndian(replica.low)
    }

    @usableFromInline mutating func bigEndian(_ word: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            storage.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
    }

    @inlinable public static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inlinable public static func varintSize(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// The size of a length-delimited field of `length` bytes whose number is below 16 (a one-byte key).
    @inlinable public static func fieldSize(_ length: Int) -> Int {
        1 + varintSize(UInt64(length)) + length
    }

    /// Bytes already encoded, as they are.
    @inlinable public mutating func append(_ encoded: [UInt8]) {
        storage.append(contentsOf: encoded)
    }
}
