public import InkwellSync

/// What arrived for a document while its incoming changes were held: enough for an app to say "N
/// changes from A and B arrived" before the user merges them.
public struct Arrivals: Hashable, Sendable {
    /// Held changes, by the replica that made them.
    public var changesByAuthor: [ReplicaID: Int] = [:]
    /// Their encoded size.
    public var bytes = 0
    /// The earliest and latest of their stamps: when they were made.
    public var earliest: Stamp?
    public var latest: Stamp?

    public init() {}

    /// How many changes are held.
    public var count: Int { changesByAuthor.values.reduce(0, +) }

    public var isEmpty: Bool { changesByAuthor.isEmpty }

    mutating func add(_ change: EncodedChange) {
        changesByAuthor[change.id.replica, default: 0] += 1
        bytes += change.payload.operations.reduce(0) { $0 + $1.count }
        earliest = min(earliest ?? change.stamp, change.stamp)
        latest = max(latest ?? change.stamp, change.stamp)
    }
}
