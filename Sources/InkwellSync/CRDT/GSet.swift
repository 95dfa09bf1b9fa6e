/// A grow-only set: elements are added and never removed; merge is union.
public struct GSet<Element: Hashable>: Mergeable {
    public private(set) var elements: Set<Element> = []

    public init() {}

    public init(_ elements: some Sequence<Element>) {
        self.elements = Set(elements)
    }

    public func contains(_ element: Element) -> Bool { elements.contains(element) }

    public var count: Int { elements.count }

    /// - Returns: whether the element was new.
    @discardableResult
    public mutating func insert(_ element: Element) -> Bool {
        elements.insert(element).inserted
    }

    /// - Complexity: O(`other.count`).
    public mutating func merge(_ other: GSet<Element>) {
        elements.formUnion(other.elements)
    }
}

extension GSet: Equatable {}
extension GSet: Hashable {}
extension GSet: Sendable where Element: Sendable {}

extension GSet: InvariantChecking {
    /// A set has no invariant beyond what `Set` enforces.
    public func checkInvariants() throws(InvariantViolation) {}
}

extension GSet: CanonicallyEncodable where Element: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(elements) }
}
