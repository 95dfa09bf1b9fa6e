/// The place of one operation in the strict total order that every replica agrees on.
///
/// Changes are ordered by `(stamp, replica, seq)`; the operations inside one change by their index.
/// Last-writer-wins registers compare these, and observed-remove sets use them as unique add tags,
/// because no two operations anywhere share one.
public struct OpStamp: Hashable, Comparable, Sendable {
    public let stamp: Stamp
    public let change: ChangeID
    public let index: UInt32

    public init(stamp: Stamp, change: ChangeID, index: UInt32 = 0) {
        self.stamp = stamp
        self.change = change
        self.index = index
    }

    @inlinable public static func < (lhs: OpStamp, rhs: OpStamp) -> Bool {
        (lhs.stamp, lhs.change.replica, lhs.change.seq, lhs.index)
            < (rhs.stamp, rhs.change.replica, rhs.change.seq, rhs.index)
    }
}

extension OpStamp: CustomStringConvertible {
    public var description: String { "\(stamp)@\(change)#\(index)" }
}
