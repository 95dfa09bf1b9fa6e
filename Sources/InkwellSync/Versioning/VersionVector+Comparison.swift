/// How two sets of changes relate.
public enum CausalOrder: Hashable, Sendable {
    /// The same changes.
    case equal
    /// Every change of the left is in the right, which has more.
    case before
    /// Every change of the right is in the left, which has more.
    case after
    /// Each has changes the other lacks.
    case concurrent
}

extension VersionVector {
    /// Whether every change described by `other` is described by `self` (`other ⊆ self`).
    ///
    /// - Complexity: O(replicas in `other`).
    public func covers(_ other: VersionVector) -> Bool {
        other.entries.allSatisfy { replica, seq in self[replica] >= seq }
    }

    /// The partial order of change sets.
    ///
    /// - Complexity: O(replicas in both).
    public func compare(_ other: VersionVector) -> CausalOrder {
        switch (covers(other), other.covers(self)) {
        case (true, true): .equal
        case (true, false): .after
        case (false, true): .before
        case (false, false): .concurrent
        }
    }
}
