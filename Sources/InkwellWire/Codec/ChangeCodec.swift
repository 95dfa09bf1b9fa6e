import Foundation
public import InkwellSync
import SwiftProtobuf

/// Changes to and from their wire encoding (`Protos/inkwell/v1/change.proto`).
///
/// The engine reads a change's header (id, stamp, document, type, schema) and keeps its operations
/// as bytes: they belong to the document type. Structure is checked strictly: bytes that are not a
/// change, a replica id that is not 16 bytes, a seq of 0 or past ``WireLimits/maximumSeq``, an
/// empty or oversized document name throw ``WireError`` and nothing is decoded. What is inside the
/// operations is for the type to read (``DocumentEdit``), which keeps whatever it cannot.
public enum ChangeCodec {
    /// - Complexity: O(size of the change).
    public static func encode(_ change: EncodedChange) -> [UInt8] {
        encode(
            change.id,
            stamp: change.stamp,
            document: change.payload.document,
            type: change.payload.type,
            schemaVersion: change.payload.schemaVersion,
            operations: change.payload.operations
        )
    }

    /// A typed change, its operations written by its type.
    ///
    /// - Complexity: O(size of the change).
    @inlinable
    public static func encode<Edit: DocumentEdit>(_ change: Change<Edit>) -> [UInt8] {
        encode(
            change.id,
            stamp: change.stamp,
            document: change.payload.document,
            type: Edit.documentType,
            schemaVersion: Edit.schemaVersion,
            operations: change.payload.operationsLayout(in: change.id)
        )
    }

    /// A `Change` message, written directly (see ``WireWriter``) into one array of its exact size;
    /// `generatedEncoding(_:)` is the reference.
    @inlinable
    static func encode(
        _ id: ChangeID,
        stamp: Stamp,
        document: String,
        type: DocumentType,
        schemaVersion: UInt32,
        operations: some EncodedOperations
    ) -> [UInt8] {
        let typeName = type.writtenName
        let size =
            headerSize(id, stamp: stamp.rawValue, documentBytes: document.utf8.count, schemaVersion: schemaVersion)
            + operations.fieldsSize + (typeName.isEmpty ? 0 : WireWriter.fieldSize(typeName.utf8.count))
        var wire = WireWriter(capacity: size)
        writeHeader(id, stamp: stamp.rawValue, document: document, schemaVersion: schemaVersion, to: &wire)
        operations.write(field: 6, to: &wire)
        if !typeName.isEmpty { wire.field(7, typeName.utf8) }
        assert(wire.bytes.count == size, "a change is written at the size it was measured at")
        return wire.bytes
    }

    /// The fields of a `Change` before its operations, as ``encode(_:)-(EncodedChange)`` writes them.
    @usableFromInline static func writeHeader(
        _ id: ChangeID,
        stamp: UInt64,
        document: String,
        schemaVersion: UInt32,
        to wire: inout WireWriter
    ) {
        wire.field(1, id.replica)
        wire.varintField(2, id.seq)
        wire.fixed64Field(3, stamp)
        if !document.isEmpty { wire.field(4, document.utf8) }
        wire.varintField(5, UInt64(schemaVersion))
    }

    /// The size of what ``writeHeader(_:stamp:document:schemaVersion:to:)`` writes.
    @usableFromInline static func headerSize(
        _ id: ChangeID,
        stamp: UInt64,
        documentBytes: Int,
        schemaVersion: UInt32
    ) -> Int {
        18 + (id.seq == 0 ? 0 : 1 + WireWriter.varintSize(id.seq)) + (stamp == 0 ? 0 : 9)
            + (documentBytes == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(documentBytes)) + documentBytes)
            + (schemaVersion == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(schemaVersion)))
    }

    /// The same bytes as ``encode(_:)-(EncodedChange)``, through the generated messages: the
    /// reference it is tested against.
    static func generatedEncoding(_ change: EncodedChange) -> [UInt8] {
        var wire = WireChange()
        wire.replica = Data(change.id.replica.bytes)
        wire.seq = change.id.seq
        wire.stamp = change.stamp.rawValue
        wire.document = change.payload.document
        wire.schemaVersion = change.payload.schemaVersion
        wire.operations = change.payload.operations.map { Data($0) }
        wire.type = change.payload.type.writtenName
        return try! wire.serializedBytes()
    }

    /// A change with its operations as bytes, whatever its type and schema.
    ///
    /// - Complexity: O(size of the change); the operations are slices of `bytes`, not copies.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> EncodedChange {
        guard bytes.count <= WireLimits.maximumChangeBytes else { throw .tooLarge("change") }
        // Canonical bytes are read directly (see ``WireReader``); the generated decoder judges the rest.
        let wire: ChangeFields
        if let fields = WireReader.change(bytes) {
            wire = fields
        } else {
            do {
                let message = try WireChange(serializedBytes: bytes)
                wire = ChangeFields(
                    replica: ArraySlice(message.replica),
                    seq: message.seq,
                    stamp: message.stamp,
                    document: message.document,
                    type: message.type,
                    schemaVersion: message.schemaVersion,
                    operations: message.operations
                )
            } catch {
                throw .malformed("change")
            }
        }
        let id = try checkedID(wire)
        try checkNames(wire)
        return Change(
            id: id,
            stamp: Stamp(rawValue: wire.stamp),
            payload: EncodedEdit(
                document: wire.document,
                type: DocumentType(writtenName: wire.type),
                schemaVersion: wire.schemaVersion,
                operations: wire.operations.map { wire.source[$0] }
            )
        )
    }

    /// A change read by its type.
    ///
    /// - Throws: what ``decode(_:)`` throws; ``WireError/otherType(_:)`` for a change of another type,
    ///   and ``WireError/futureSchema(_:)`` for a schema newer than `Edit` reads: such a change is
    ///   kept as it is, never read wrongly.
    /// - Complexity: O(size of the change).
    @inlinable
    public static func decode<Edit: DocumentEdit>(_ bytes: [UInt8], as _: Edit.Type) throws(WireError) -> Change<Edit> {
        // Canonical bytes: the type reads its operations where they lie. Anything else goes through the
        // checks of ``decode(_:)``.
        guard bytes.count <= WireLimits.maximumChangeBytes, let fields = WireReader.change(bytes) else {
            let change = try decode(bytes)
            try check(change.payload.type, change.payload.schemaVersion, as: Edit.self)
            return change.decoded(as: Edit.self)!
        }
        let id = try checkedID(fields)
        try checkNames(fields)
        try check(DocumentType(writtenName: fields.type), fields.schemaVersion, as: Edit.self)
        return Change(
            id: id,
            stamp: Stamp(rawValue: fields.stamp),
            payload: Edit(document: fields.document, operations: fields.source[...], at: fields.operations, in: id)
        )
    }

    /// A change read by its type, or `nil` when it is of another type or a newer schema: kept as it is,
    /// for a version that reads it.
    ///
    /// - Throws: what ``decode(_:)`` throws.
    public static func decodeIfReadable<Edit: DocumentEdit>(
        _ bytes: [UInt8],
        as _: Edit.Type
    ) throws(WireError) -> Change<Edit>? {
        do {
            return try decode(bytes, as: Edit.self)
        } catch let error where error.futureSchemaVersion != nil || error.isOtherType {
            return nil
        }
    }

    @usableFromInline static func check<Edit: DocumentEdit>(
        _ type: DocumentType,
        _ schemaVersion: UInt32,
        as _: Edit.Type
    ) throws(WireError) {
        guard type == Edit.documentType else { throw .otherType(type.rawValue) }
        guard schemaVersion <= Edit.schemaVersion else { throw .futureSchema(schemaVersion) }
    }

    @usableFromInline static func checkedID(_ wire: ChangeFields) throws(WireError) -> ChangeID {
        guard let replica = ReplicaID(bytes: wire.replica) else { throw .invalidField("change.replica") }
        guard wire.seq >= 1, wire.seq <= WireLimits.maximumSeq else { throw .invalidField("change.seq") }
        return ChangeID(replica: replica, seq: wire.seq)
    }

    @usableFromInline static func checkNames(_ wire: ChangeFields) throws(WireError) {
        guard !wire.document.isEmpty, wire.document.utf8.count <= WireLimits.maximumNameBytes else {
            throw .invalidField("change.document")
        }
        guard wire.type.utf8.count <= WireLimits.maximumNameBytes else { throw .invalidField("change.type") }
        guard wire.operations.count <= WireLimits.maximumOperationsPerChange else { throw .tooLarge("operations") }
    }
}
