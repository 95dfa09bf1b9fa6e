public import InkwellSync

/// The board as a live document of a replica.
extension BoardState: ReplicatedDocument {
    public typealias Edit = BoardEdit

    public init(document: String) {
        self.init(board: BoardID(document))
    }

    /// ``canonicalHash``: the same on every replica that applied the same changes.
    public var fingerprint: String { canonicalHash }
}
