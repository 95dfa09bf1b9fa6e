import InkwellSync

/// One replica's settles on a board: which of its changes have a fixed fate, and what that fate is.
///
/// A change is governed by the earliest settle (by the seq of its change, then its index) whose
/// `through` reaches it. Kept sorted that way with each entry's *reach* (the furthest `through` of it and
/// every earlier entry), so finding the governing settle is a binary search: a board of a million changes
/// holds thousands of settles, and compaction asks for every change's.
struct Settlements: Sendable {
    struct Entry: Sendable, Hashable {
        /// The seq of the change that carries the settle, and the settle's index in it.
        let seq: UInt64
        let index: Int
        let through: UInt64
        /// The seqs it says are inactive, sorted, without repeats.
        let inactive: [UInt64]

        func isActive(_ seq: UInt64) -> Bool {
            assert(seq <= through, "a settle speaks only of the changes it covers")
            return !inactive.sortedContains(seq)
        }
    }

    /// Sorted by (seq, index).
    private(set) var entries: [Entry] = []
    /// `reach[i]` is the largest `through` of `entries[...i]`.
    private var reach: [UInt64] = []
    /// Every `through`, sorted: whether one falls in a range decides whether an append is void.
    private var throughs: [UInt64] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The furthest any settle reaches: every change up to it is covered.
    var furthest: UInt64 { reach.last ?? 0 }

    /// Adds a settle that has not been added before.
    ///
    /// - Complexity: O(settles).
    mutating func insert(_ entry: Entry) {
        // Settles arrive in their author's order almost always: search from the end.
        let at = (entries.lastIndex { ($0.seq, $0.index) < (entry.seq, entry.index) } ?? -1) + 1
        assert(
            at == entries.endIndex || (entries[at].seq, entries[at].index) != (entry.seq, entry.index),
            "inserted twice"
        )
        entries.insert(entry, at: at)
        reach.removeSubrange(at...)
        var furthest = at == 0 ? 0 : reach[at - 1]
        for index in at..<entries.count {
            furthest = max(furthest, entries[index].through)
            reach.append(furthest)
        }
        throughs.insert(entry.through, at: throughs.insertionPoint(of: entry.through))
    }

    /// The settle that fixes the fate of the change with this seq, if any covers it.
    ///
    /// - Complexity: O(log settles).
    func governing(_ seq: UInt64) -> Entry? {
        let index = reach.insertionPoint(of: seq)
        return index == entries.endIndex ? nil : entries[index]
    }

    /// Whether an append in change `seq` to a stroke added in change `added` is void: a settle reaches
    /// the stroke but not the append.
    ///
    /// - Complexity: O(log settles).
    func voids(appendIn seq: UInt64, toStrokeAddedIn added: UInt64) -> Bool {
        let index = throughs.insertionPoint(of: added)
        return index < throughs.endIndex && throughs[index] < seq
    }
}

extension Array where Element: Comparable {
    /// Whether a sorted array holds `element`.
    ///
    /// - Complexity: O(log n).
    func sortedContains(_ element: Element) -> Bool {
        let index = insertionPoint(of: element)
        return index < endIndex && self[index] == element
    }
}
