public import InkwellSync

/// The board as a live document of a replica.
extension BoardState: ReplicatedDocument {
    public typealias Edit = BoardEdit

    public init(document: String) {
        self.init(board: BoardID(document))
    }

    /// Applies a batch; the same as applying its changes one by one in any order.
    @discardableResult
    public mutating func apply(contentsOf changes: [BoardChange]) -> BoardDelta {
        apply(contentsOf: changes[...])
    }

    /// ``canonicalHash``: the same on every replica that applied the same changes.
    public var fingerprint: String { canonicalHash }
}
