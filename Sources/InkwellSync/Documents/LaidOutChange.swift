/// A change whose operations lie in a buffer shared with others (a snapshot's columns): its id, its
/// stamp, and where its operations are.
public struct LaidOutChange: Sendable {
    public let id: ChangeID
    public let stamp: Stamp
    public let operations: OperationRanges

    public init(id: ChangeID, stamp: Stamp, operations: OperationRanges) {
        self.id = id
        self.stamp = stamp
        self.operations = operations
    }
}
