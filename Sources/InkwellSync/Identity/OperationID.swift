/// One operation, named by its change and its index in it: unique everywhere, and known to anyone who
/// names it without its stamp (a reference in another operation carries no stamp to forge or disagree on).
public struct OperationID: Hashable, Comparable, Sendable {
    public let change: ChangeID
    public let index: UInt32

    public init(change: ChangeID, index: UInt32 = 0) {
        self.change = change
        self.index = index
    }

    public static func < (lhs: OperationID, rhs: OperationID) -> Bool {
        (lhs.change, lhs.index) < (rhs.change, rhs.index)
    }
}

extension OpStamp {
    /// The operation this stamp belongs to.
    public var operation: OperationID { OperationID(change: change, index: index) }
}
