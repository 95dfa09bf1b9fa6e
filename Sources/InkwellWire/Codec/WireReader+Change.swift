import Foundation
public import InkwellSync

/// The fields of an encoded `Change`, before they are checked.
///
/// Visible to inlinable code so that ``ChangeCodec/decode(_:as:)`` is specialised for each document
/// type in the module that reads it.
@usableFromInline struct ChangeFields {
    @usableFromInline var replica: ArraySlice<UInt8> = []
    @usableFromInline var seq: UInt64 = 0
    @usableFromInline var stamp: UInt64 = 0
    @usableFromInline var document = ""
    @usableFromInline var type = ""
    @usableFromInline var schemaVersion: UInt32 = 0
    /// Each operation's encoded `Operation`, as a range of `source`: the direct reader copies nothing.
    @usableFromInline var operations = OperationRanges()
    @usableFromInline var source: [UInt8] = []

    @usableFromInline init() {}
}

extension ChangeFields {
    /// Fields as the generated decoder gives them, the operations laid end to end in `source`.
    init(
        replica: ArraySlice<UInt8>,
        seq: UInt64,
        stamp: UInt64,
        document: String,
        type: String,
        schemaVersion: UInt32,
        operations: some Sequence<some Collection<UInt8>>
    ) {
        self.init()
        (self.replica, self.seq, self.stamp) = (replica, seq, stamp)
        (self.document, self.type, self.schemaVersion) = (document, type, schemaVersion)
        for operation in operations {
            self.operations.append(source.count..<source.count + operation.count)
            source.append(contentsOf: operation)
        }
    }

    /// Each operation's bytes.
    var operationBytes: [[UInt8]] { operations.map { Array(source[$0]) } }
}

extension WireReader {
    /// The fields of an encoded `Change` in canonical form, or `nil` (see ``WireReader``).
    @usableFromInline static func change(_ bytes: [UInt8]) -> ChangeFields? {
        var reader = WireReader(bytes)
        var fields = ChangeFields()
        fields.source = bytes
        if let range = reader.lengthDelimited(1) { fields.replica = bytes[range] }
        if reader.key(2, 0) {
            guard let seq = reader.varint() else { return nil }
            fields.seq = seq
        }
        if reader.key(3, 1) {
            guard let stamp = reader.fixed64() else { return nil }
            fields.stamp = stamp
        }
        if let range = reader.lengthDelimited(4) {
            guard let document = Self.text(bytes, range) else { return nil }
            fields.document = document
        }
        if reader.key(5, 0) {
            guard let version = reader.varint(), version <= UInt64(UInt32.max) else { return nil }
            fields.schemaVersion = UInt32(version)
        }
        while let range = reader.lengthDelimited(6) { fields.operations.append(range) }
        if let range = reader.lengthDelimited(7) {
            guard let type = Self.text(bytes, range) else { return nil }
            fields.type = type
        }
        return reader.isAtEnd ? fields : nil
    }
}
