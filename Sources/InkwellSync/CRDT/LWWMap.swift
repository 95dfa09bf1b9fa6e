/// A map of last-writer-wins registers: the entity–attribute–value "atoms" that apps build on.
///
/// Each key holds the latest write in the total order; a removal is a write of "absent" and stays
/// as a tombstone so that an older concurrent write cannot bring the key back. Key it by an
/// ``AtomKey`` (entity, attribute) to model objects whose fields change independently.
public struct LWWMap<Key: Hashable, Value>: Mergeable {
    /// Every key ever written, with its winning write; `nil` values are tombstones.
    public var registers: [Key: LWWRegister<Value?>] { storage }
    /// Backing storage, reachable from inlinable code so that merges specialise in client modules.
    @usableFromInline var storage: [Key: LWWRegister<Value?>] = [:]

    @inlinable public init() {}

    /// The live value under `key`.
    ///
    /// - Complexity: O(1).
    @inlinable public subscript(key: Key) -> Value? {
        storage[key]?.value ?? nil
    }

    /// Live keys and values (tombstones skipped).
    public var entries: some Sequence<(key: Key, value: Value)> {
        registers.lazy.compactMap { key, register in register.value.map { (key: key, value: $0) } }
    }

    /// The number of live keys.
    ///
    /// - Complexity: O(keys ever written).
    public var count: Int { registers.values.count { $0.value != nil } }

    /// Writes `value` under `key` unless a later write is there.
    ///
    /// - Complexity: O(1).
    /// - Returns: whether the write took effect.
    @inlinable @discardableResult
    public mutating func set(_ key: Key, to value: Value?, at stamp: OpStamp) -> Bool {
        if let index = storage.index(forKey: key) {
            return storage.values[index].set(value, at: stamp)
        }
        storage[key] = LWWRegister(value, at: stamp)
        return true
    }

    /// Removes the value under `key` unless a later write is there.
    @discardableResult
    public mutating func removeValue(forKey key: Key, at stamp: OpStamp) -> Bool {
        set(key, to: nil, at: stamp)
    }

    /// - Complexity: O(`other.registers.count`).
    @inlinable public mutating func merge(_ other: LWWMap<Key, Value>) {
        // The standard library's merge finds or inserts each key with a single hash lookup.
        storage.merge(other.storage) { mine, theirs in mine.timestamp >= theirs.timestamp ? mine : theirs }
    }
}

extension LWWMap: Equatable where Value: Equatable {}
extension LWWMap: Sendable where Key: Sendable, Value: Sendable {}

extension LWWMap: InvariantChecking {
    /// Registers have no internal invariant; the map's is that of `Dictionary`.
    public func checkInvariants() throws(InvariantViolation) {}
}

extension LWWMap: CanonicallyEncodable where Key: CanonicallyEncodable, Value: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(registers) }
}

/// The key of one atom: an attribute of an entity, e.g. (stroke, "colour").
public struct AtomKey<Entity: Hashable, Attribute: Hashable>: Hashable {
    public let entity: Entity
    public let attribute: Attribute

    public init(_ entity: Entity, _ attribute: Attribute) {
        self.entity = entity
        self.attribute = attribute
    }
}

extension AtomKey: Sendable where Entity: Sendable, Attribute: Sendable {}

extension AtomKey: CanonicallyEncodable where Entity: CanonicallyEncodable, Attribute: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        entity.encode(to: &encoder)
        attribute.encode(to: &encoder)
    }
}
