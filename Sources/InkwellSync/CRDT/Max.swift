/// The simplest join: the greatest value ever seen wins.
public struct Max<Value: Comparable>: Mergeable {
    public private(set) var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Raises the value to `candidate` if it is greater; never lowers it.
    public mutating func raise(to candidate: Value) {
        if candidate > value { value = candidate }
    }

    public mutating func merge(_ other: Max<Value>) {
        raise(to: other.value)
    }
}

extension Max: Equatable {}
extension Max: Hashable where Value: Hashable {}
extension Max: Sendable where Value: Sendable {}

extension Max: InvariantChecking {
    /// A single value has no internal invariant.
    public func checkInvariants() throws(InvariantViolation) {}
}

extension Max: CanonicallyEncodable where Value: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { value.encode(to: &encoder) }
}
