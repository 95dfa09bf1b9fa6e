/// A state that merges with any other state of its type as a join: the result does not depend on
/// the order, grouping or repetition of merges.
///
/// Every conforming type must satisfy, for all reachable states `a`, `b`, `c`:
/// - commutativity: `a.merged(with: b) == b.merged(with: a)`
/// - associativity: `a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c))`
/// - idempotence: `a.merged(with: a) == a`
///
/// `InkwellTesting`'s law checker verifies these on random states; run it for every new type.
public protocol Mergeable {
    /// Folds `other` into `self`.
    mutating func merge(_ other: Self)
}

extension Mergeable {
    /// The join of `self` and `other`, leaving both untouched.
    @inlinable public func merged(with other: Self) -> Self {
        var result = self
        result.merge(other)
        return result
    }
}

/// A map of mergeable values is mergeable: keys are unioned and values under the same key merge.
///
/// This is what makes nested structures compose, e.g. `[String: [String: GCounter]]`.
extension Dictionary: Mergeable where Value: Mergeable {
    /// - Complexity: O(`other.count`) merges of values.
    @inlinable public mutating func merge(_ other: [Key: Value]) {
        for (key, value) in other {
            if let index = self.index(forKey: key) {
                values[index].merge(value)
            } else {
                self[key] = value
            }
        }
    }
}

/// `nil` is the bottom element: merging with it changes nothing.
extension Optional: Mergeable where Wrapped: Mergeable {
    @inlinable public mutating func merge(_ other: Wrapped?) {
        guard let other else { return }
        if self == nil {
            self = other
        } else {
            self!.merge(other)
        }
    }
}
