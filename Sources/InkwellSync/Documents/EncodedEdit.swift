/// A change's payload as the engine holds it: which document, of which type and schema, and the
/// type's operations as bytes the engine never reads.
///
/// Operations are kept as slices of the bytes they were decoded from, so decoding a change copies
/// nothing, and re-encoding one writes its operations back exactly as they came, whether or not this
/// version knows their type.
public struct EncodedEdit: Hashable, Sendable {
    public var document: String
    public var type: DocumentType
    /// The schema the operations were written in.
    public var schemaVersion: UInt32
    public var operations: [ArraySlice<UInt8>]

    public init(document: String, type: DocumentType, schemaVersion: UInt32, operations: [ArraySlice<UInt8>]) {
        self.document = document
        self.type = type
        self.schemaVersion = schemaVersion
        self.operations = operations
    }
}

/// A change as the engine holds it: ids, stamp and opaque operations.
public typealias EncodedChange = Change<EncodedEdit>

extension Change where Payload == EncodedEdit {
    /// The change as its document type reads it.
    ///
    /// - Returns: `nil` when the change is of another type, or of a schema newer than `E` knows: it is
    ///   kept as it is, not read wrongly.
    public func decoded<E: DocumentEdit>(as _: E.Type = E.self) -> Change<E>? {
        guard payload.type == E.documentType, payload.schemaVersion <= E.schemaVersion else { return nil }
        return Change<E>(
            id: id,
            stamp: stamp,
            payload: E(document: payload.document, operations: payload.operations, in: id)
        )
    }
}

extension Change where Payload: DocumentEdit {
    /// The change with its operations encoded, as the engine stores and sends it.
    ///
    /// - Complexity: O(size of the change).
    public var encoded: EncodedChange {
        EncodedChange(
            id: id,
            stamp: stamp,
            payload: EncodedEdit(
                document: payload.document,
                type: Payload.documentType,
                schemaVersion: Payload.schemaVersion,
                operations: payload.encodedOperations(in: id).map { $0[...] }
            )
        )
    }
}
