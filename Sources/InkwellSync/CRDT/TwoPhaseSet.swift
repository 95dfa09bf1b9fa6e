/// A set whose removals are final: once removed (anywhere), an element can never come back.
///
/// Kept in normal form: an element is either live (in ``live``) or a tombstone (in ``removed``),
/// never both, so equal sets compare and encode equal. A removal may arrive before its add.
public struct TwoPhaseSet<Element: Hashable>: Mergeable {
    public private(set) var live: Set<Element> = []
    public private(set) var removed: Set<Element> = []

    public init() {}

    public func contains(_ element: Element) -> Bool { live.contains(element) }

    public var count: Int { live.count }

    /// - Returns: whether the element is now live (false if it was removed before).
    @discardableResult
    public mutating func insert(_ element: Element) -> Bool {
        guard !removed.contains(element) else { return false }
        live.insert(element)
        return true
    }

    /// Removes `element` for good.
    public mutating func remove(_ element: Element) {
        live.remove(element)
        removed.insert(element)
    }

    /// - Complexity: O(`other.live.count + other.removed.count`).
    public mutating func merge(_ other: TwoPhaseSet<Element>) {
        removed.formUnion(other.removed)
        live.formUnion(other.live)
        live.subtract(removed)
    }
}

extension TwoPhaseSet: Equatable {}
extension TwoPhaseSet: Hashable {}
extension TwoPhaseSet: Sendable where Element: Sendable {}

extension TwoPhaseSet: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try require(live.isDisjoint(with: removed), "an element is both live and removed")
    }
}

extension TwoPhaseSet: CanonicallyEncodable where Element: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        encoder.writeUnordered(live)
        encoder.writeUnordered(removed)
    }
}
