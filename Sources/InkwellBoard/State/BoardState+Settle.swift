public import InkwellSync

extension BoardState {
    /// Takes in a well-formed settle: voids the appends it closes, and fixes the activity of the changes
    /// it governs, revisiting those whose activity it changed.
    ///
    /// - Complexity: O(its inactive list + undo registers + strokes with appends), plus revisiting what
    ///   changed. An honest settle changes nothing visible.
    mutating func settle(_ entry: Settlements.Entry, by replica: ReplicaID, delta: inout BoardDelta) {
        settlements[replica, default: Settlements()].insert(entry)

        let closed = strokesWithAppends.filter { $0.creator == replica && $0.change.seq <= entry.through }
        for id in closed.sorted() {
            update(id, delta: &delta) { record, isActive in
                record.removeAppends(after: entry.through, isActive: isActive)
            }
            if records[id]?.appends.isEmpty ?? true { strokesWithAppends.remove(id) }
        }

        // A change whose activity may now differ: one it lists, or one undo, redo or an earlier settle had
        // made inactive, or one with a register.
        var affected = Set(entry.inactive.map { ChangeID(replica: replica, seq: $0) })
        for target in activity.keys where target.replica == replica && target.seq <= entry.through {
            affected.insert(target)
        }
        for target in inactive where target.replica == replica && target.seq <= entry.through {
            affected.insert(target)
        }
        for target in affected.sorted() { refreshActivity(of: target, delta: &delta) }
    }

    /// Whether `change` is active by the rules: its governing settle if one covers it, else its register.
    ///
    /// - Complexity: O(log settles).
    func activityByRule(of change: ChangeID) -> Bool {
        if let governing = settlements[change.replica]?.governing(change.seq) {
            return governing.isActive(change.seq)
        }
        return activity[change]?.value ?? true
    }

    /// Brings `target`'s entry in ``inactive`` up to date, revisiting what it touched if it changed.
    mutating func refreshActivity(of target: ChangeID, delta: inout BoardDelta) {
        let active = activityByRule(of: target)
        guard active != isActive(target) else { return }
        if active { inactive.remove(target) } else { inactive.insert(target) }
        revisit(target, delta: &delta)
    }

    /// The furthest of `replica`'s changes that its settles on this board reach.
    public func settledThrough(of replica: ReplicaID) -> UInt64 {
        settlements[replica]?.furthest ?? 0
    }

    /// The operation with which `replica` settles its changes on this board through `through`: it names
    /// those of them applied here that are inactive now, after the furthest it settled before. `nil` when
    /// that already reaches `through`. When more than ``BoardLimits/maximumSettledInactive`` of them are
    /// inactive, it settles only as far as that many.
    ///
    /// - Complexity: O(inactive changes).
    public func settlement(of replica: ReplicaID, through: UInt64) -> BoardOperation? {
        let previous = settledThrough(of: replica)
        guard through > previous else { return nil }
        let undone = inactive.filter {
            $0.replica == replica && $0.seq > previous && $0.seq <= through && contains($0)
        }.map(\.seq).sorted()
        let limit = BoardLimits.maximumSettledInactive
        guard undone.count > limit else { return .settle(through: through, inactive: undone) }
        // A list past the limit would be ignored: settle as far as it fits.
        return .settle(through: undone[limit] - 1, inactive: Array(undone.prefix(limit)))
    }
}

extension StrokeRecord {
    /// Drops the appends made in changes after `through`, which a settle has voided.
    ///
    /// - Complexity: O(points) when any is dropped.
    mutating func removeAppends(after through: UInt64, isActive: ActivityCheck) {
        let kept = appends.filter { $0.change.seq <= through }
        guard kept.count != appends.count else { return }
        appends = kept
        layOutPoints()
        recomputeVisibility(isActive: isActive)
    }
}
