import InkwellSync

/// Every write to one attribute of one stroke, so that undoing the latest write brings back the one
/// before it. The current value is the latest write, in the total order, whose change is active.
struct AttributeHistory: Sendable {
    struct Write: Sendable {
        let position: OpStamp
        let value: AttributeValue
    }

    /// Sorted by position.
    private(set) var writes: [Write] = []

    /// - Complexity: O(1) for the newest write, O(writes) otherwise.
    mutating func insert(_ write: Write) {
        let index = writes.lastIndex { $0.position < write.position }.map { $0 + 1 } ?? 0
        writes.insert(write, at: index)
    }

    /// The latest active write's value.
    ///
    /// - Complexity: O(1) unless recent writes were undone.
    func current(isActive: (ChangeID) -> Bool) -> AttributeValue? {
        writes.last { isActive($0.position.change) }?.value
    }
}
