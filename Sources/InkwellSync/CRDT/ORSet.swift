/// An observed-remove set: a remove cancels only the adds its replica had seen, so a concurrent
/// add survives (add wins).
///
/// Every add carries a unique tag (the ``OpStamp`` of the operation); a remove turns the tags it
/// observed into tombstones. Kept in normal form: a tag is live or a tombstone, never both, and
/// no element is kept with an empty tag set, so equal sets compare and encode equal.
public struct ORSet<Element: Hashable>: Mergeable {
    /// Live add tags per element.
    public private(set) var tags: [Element: Set<OpStamp>] = [:]
    /// Tags of adds that some remove has cancelled.
    public private(set) var tombstones: Set<OpStamp> = []

    public init() {}

    public func contains(_ element: Element) -> Bool { tags[element] != nil }

    public var elements: Dictionary<Element, Set<OpStamp>>.Keys { tags.keys }

    public var count: Int { tags.count }

    /// Adds `element` under the unique `tag`; a tag that was already cancelled stays cancelled.
    public mutating func insert(_ element: Element, tag: OpStamp) {
        guard !tombstones.contains(tag) else { return }
        tags[element, default: []].insert(tag)
    }

    /// Removes `element` as this replica sees it now.
    ///
    /// - Returns: the tags that were cancelled; send them as the remove operation.
    @discardableResult
    public mutating func remove(_ element: Element) -> Set<OpStamp> {
        guard let observed = tags.removeValue(forKey: element) else { return [] }
        tombstones.formUnion(observed)
        return observed
    }

    /// Applies a remote remove: cancels exactly `cancelled`, even if their adds have not arrived yet.
    public mutating func remove(tags cancelled: Set<OpStamp>) {
        tombstones.formUnion(cancelled)
        prune(removing: cancelled)
    }

    /// - Complexity: O(size of `other` + live tags of the elements it touches).
    public mutating func merge(_ other: ORSet<Element>) {
        tombstones.formUnion(other.tombstones)
        for (element, otherTags) in other.tags {
            let alive = otherTags.subtracting(tombstones)
            if !alive.isEmpty { tags[element, default: []].formUnion(alive) }
        }
        prune(removing: other.tombstones)
    }

    /// Drops `cancelled` tags from live elements, and elements left with no tag.
    private mutating func prune(removing cancelled: Set<OpStamp>) {
        guard !cancelled.isEmpty else { return }
        for element in Array(tags.keys) where !tags[element]!.isDisjoint(with: cancelled) {
            let remaining = tags[element]!.subtracting(cancelled)
            tags[element] = remaining.isEmpty ? nil : remaining
        }
    }
}

extension ORSet: Equatable {}
extension ORSet: Sendable where Element: Sendable {}

extension ORSet: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        var seen: Set<OpStamp> = []
        for live in tags.values {
            try require(!live.isEmpty, "element kept with no tag")
            try require(live.isDisjoint(with: tombstones), "tag both live and cancelled")
            try require(live.isDisjoint(with: seen), "tag shared by two elements")
            seen.formUnion(live)
        }
    }
}

extension ORSet: CanonicallyEncodable where Element: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        encoder.writeUnordered(tags)
        encoder.writeUnordered(tombstones)
    }
}
