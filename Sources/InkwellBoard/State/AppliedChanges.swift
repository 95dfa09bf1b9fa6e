import InkwellSync

/// The changes a board has applied, each with what it touched (``Effects``), by timeline.
///
/// A timeline's changes arrive mostly in seq order, so each replica's sit in an array indexed by seq
/// from the first one seen: a change costs one lookup of its replica. A table keyed by change id hashed
/// all 24 bytes of the id on every lookup and insert, and hashed every id again each time it grew: 7 %
/// of the instructions of receiving a one-point change (W1, counted by callgrind).
///
/// A seq that would leave its run's array more than twice as long as the changes it holds (plus 64
/// slots) goes to a table of its own instead, so no seq can make an array grow out of proportion.
struct AppliedChanges: Sendable {
    private var timelines: [ReplicaID: Run] = [:]
    /// The number of changes applied.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// What the change touched, if it has been applied.
    subscript(id: ChangeID) -> Effects? {
        timelines[id.replica]?[id.seq]
    }

    /// Records a change that has not been applied before.
    mutating func insert(_ effects: Effects, for id: ChangeID) {
        assert(self[id] == nil, "a change is applied once")
        count += 1
        timelines[id.replica, default: Run(first: id.seq)].insert(effects, at: id.seq)
    }

    /// Every change applied, in no particular order.
    var ids: [ChangeID] {
        timelines.flatMap { replica, run in run.seqs.map { ChangeID(replica: replica, seq: $0) } }
    }

    /// One timeline's changes: a run of seqs from `first`, and the strays outside it.
    private struct Run: Sendable {
        let first: UInt64
        /// Slot `i` holds seq `first + i`, or nil while that change has not been applied.
        private var slots: [Effects?] = []
        private var filled = 0
        private var strays: [UInt64: Effects] = [:]

        init(first: UInt64) {
            self.first = first
        }

        /// A seq's slot may be empty while the seq is a stray: it went to the strays before the run
        /// grew to reach it.
        subscript(seq: UInt64) -> Effects? {
            if seq >= first, seq - first < UInt64(slots.count), let effects = slots[Int(seq - first)] {
                return effects
            }
            return strays.isEmpty ? nil : strays[seq]
        }

        mutating func insert(_ effects: Effects, at seq: UInt64) {
            if seq >= first {
                let offset = seq - first
                if offset < UInt64(slots.count) {
                    slots[Int(offset)] = effects
                    filled += 1
                    return
                }
                if offset < UInt64(2 * (filled + 1) + 64) {
                    slots.append(contentsOf: repeatElement(nil, count: Int(offset) - slots.count))
                    slots.append(effects)
                    filled += 1
                    return
                }
            }
            strays[seq] = effects
        }

        var seqs: [UInt64] {
            slots.indices.compactMap { slots[$0] == nil ? nil : first + UInt64($0) } + strays.keys
        }
    }
}
