public import InkwellSync

/// What one change does to a ``ModelDocument``: operations on its named fields.
///
/// The engine files these changes under the type `model`; each operation is one `ModelOperation`
/// message (``ModelOperation/encoded``).
public struct ModelEdit: DocumentEdit {
    public static let documentType: DocumentType = "model"

    /// 1 since the first release: a newer schema would be kept aside by this version.
    public static let schemaVersion: UInt32 = 1

    public var document: String
    public var operations: [ModelOperation]

    public init(document: String, operations: [ModelOperation]) {
        self.document = document
        self.operations = operations
    }

    /// - Complexity: O(size of the edit).
    public func encodedOperations(in change: ChangeID) -> [[UInt8]] {
        operations.map(\.encoded)
    }

    /// Anything unreadable becomes ``ModelOperation/unknown(_:)``, kept as it came.
    ///
    /// - Complexity: O(size of the operations).
    public init(document: String, operations: [ArraySlice<UInt8>], in change: ChangeID) {
        self.init(document: document, operations: operations.map(ModelOperation.init(decoding:)))
    }

    /// The fields the change names, without repeats, in operation order.
    ///
    /// - Complexity: O(operations).
    public func entities(in change: ChangeID) -> [String] {
        var seen: Set<[UInt8]> = []
        var entities: [String] = []
        for operation in operations where operation.isApplicable {
            guard let field = operation.field, seen.insert(Array(field.utf8)).inserted else { continue }
            entities.append(field)
        }
        return entities
    }
}
