/// Every change a replica holds, kept per timeline and in the strict total order `(stamp, replica, seq)`.
///
/// Insert is idempotent: a change that is already here, or already compacted into the baseline the
/// log starts from, is recognised and ignored. Changes that arrive ahead of a gap in their timeline
/// are kept and reported as gaps until the missing ones come. Bad changes are refused with a
/// ``ChangeLogError`` and leave the log untouched.
public struct ChangeLog<Payload> {
    @usableFromInline var timelines: [ReplicaID: Timeline<Payload>] = [:]
    /// Every change held, as its total-order position, sorted.
    @usableFromInline var order: [OpStamp] = []

    /// An empty log.
    @inlinable public init() {}

    /// A log that continues from a baseline: changes inside `baseline` count as already here.
    public init(after baseline: Cut) {
        for (replica, seq) in baseline.vector.entries {
            timelines[replica] = Timeline(base: seq, baseStamp: baseline.stamps[replica])
        }
    }

    /// The number of changes held (compacted ones excluded).
    @inlinable public var count: Int { order.count }

    @inlinable public var isEmpty: Bool { order.isEmpty }

    /// Inserts one change.
    ///
    /// - Complexity: O(log n) plus amortised O(1) when the change is the newest in the total
    ///   order, as local edits and live sync are; O(n) otherwise. Use ``insert(contentsOf:)`` for batches.
    @inlinable @discardableResult
    public mutating func insert(_ change: Change<Payload>) throws(ChangeLogError) -> InsertOutcome {
        let outcome = try timelines[change.id.replica, default: Timeline()].insert(change)
        guard case .inserted = outcome else { return InsertOutcome(outcome) }
        let position = change.position
        if let last = order.last, position < last {
            order.insert(position, at: order.insertionPoint(of: position))
        } else {
            order.append(position)
        }
        return .inserted
    }

    /// Inserts many changes at once, in any order, merging them into the total order in one pass.
    ///
    /// Refused changes are reported, not thrown, so that one bad change does not hold back the rest.
    ///
    /// - Complexity: O(k log k + n) for k changes into a log of n.
    @inlinable @discardableResult
    public mutating func insert(contentsOf changes: some Sequence<Change<Payload>>) -> BatchOutcome {
        var outcome = BatchOutcome()
        var added: [OpStamp] = []
        let sorted = changes.sorted { $0.id < $1.id }
        for change in sorted {
            do {
                switch try timelines[change.id.replica, default: Timeline()].insert(change) {
                case .inserted:
                    added.append(change.position)
                case .duplicate, .alreadyCompacted:
                    outcome.duplicates += 1
                }
            } catch {
                outcome.refused.append(error)
            }
        }
        outcome.inserted = added.count
        order.mergeSorted(added.sorted())
        return outcome
    }

    /// The change with this id, if it is held (not compacted).
    ///
    /// - Complexity: O(1) inside the contiguous run, O(log pending) past a gap.
    @inlinable public subscript(id: ChangeID) -> Change<Payload>? {
        timelines[id.replica]?[id.seq]
    }

    /// Whether the change is held or was compacted into the baseline.
    @inlinable public func contains(_ id: ChangeID) -> Bool {
        guard let timeline = timelines[id.replica] else { return false }
        return id.seq <= timeline.base || timeline[id.seq] != nil
    }

    /// All changes held, in the total order.
    ///
    /// - Complexity: O(1) to create, O(1) per element.
    @inlinable public var inOrder: some RandomAccessCollection<Change<Payload>> {
        order.lazy.map { self[$0.change]! }
    }

    /// The greatest stamp held, to resume a ``HybridLogicalClock`` from.
    public var latestStamp: Stamp? { order.last?.stamp }
}

/// What happened to one inserted change.
public enum InsertOutcome: Hashable, Sendable {
    /// It is new and now held.
    case inserted
    /// It was already held, or already compacted into the baseline; nothing changed.
    case duplicate

    @inlinable init(_ outcome: Timeline<some Any>.Outcome) {
        self = outcome == .inserted ? .inserted : .duplicate
    }
}

/// What happened to a batch of inserted changes.
public struct BatchOutcome: Sendable {
    public var inserted = 0
    public var duplicates = 0
    public var refused: [ChangeLogError] = []

    @inlinable public init() {}
}

extension ChangeLog: Sendable where Payload: Sendable {}
