extension Sequence<UInt64> {
    /// The sum, or `UInt64.max` when it would be larger: for counts that other replicas or a server name,
    /// which can add up to anything.
    ///
    /// - Complexity: O(n).
    package func saturatingSum() -> UInt64 {
        var total: UInt64 = 0
        for value in self {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return .max }
            total = sum
        }
        return total
    }
}
