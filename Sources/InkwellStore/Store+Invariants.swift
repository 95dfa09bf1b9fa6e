import GRDB
import InkwellSync

extension Store {
    /// Checks the file and what the store maintains on top of SQLite's constraints.
    ///
    /// Throws ``InvariantViolation`` for a broken invariant (a bug, or a damaged file) and ``StoreError``
    /// when the file cannot be read.
    ///
    /// - Complexity: O(n log n), decoding every compacted snapshot; for tests and diagnostics.
    public func checkInvariants() throws {
        try read { db in
            func require(_ condition: Bool, _ message: String) throws {
                if !condition { throw InvariantViolation(Store.self, message) }
            }
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }

            try require(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], "integrity check failed")
            try require(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty, "foreign key violated")
            try require(
                try count(
                    "SELECT count(*) FROM outbox LEFT JOIN change USING (replica, seq) WHERE change.stamp IS NULL"
                )
                    == 0,
                "outbox names a change that is not stored"
            )
            let held = try heldTimelines(db, require: require)
            for (replica, timeline) in held.byReplica {
                let stamps = timeline.sorted { $0.key < $1.key }.map(\.value.stamp)
                try require(
                    zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 },
                    "stamps do not increase along \(replica)"
                )
            }
            // A frontier is, per room and replica, the longest run from seq 1 of changes held, left out
            // by this store's snapshots (inside a compacted snapshot's cut: they stopped mattering) or
            // stood for by a room snapshot taken (inside the room's cover), with the stamp of its last
            // change when that is held.
            var frontiers: [HeldTimelines.Key: Change] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT room, replica, seq, stamp FROM room_frontier") {
                guard let replica = SQLValues.replica(stored: row[1]), let seq = SQLValues.unsigned(stored: row[2])
                else { throw StoreError.corruptRow("room_frontier") }
                frontiers[HeldTimelines.Key(room: row[0], replica: replica)] = Change(
                    seq: seq,
                    stamp: SQLValues.stamp(stored: row[3])
                )
            }
            var keys = Set(frontiers.keys)
            for (replica, timeline) in held.byReplica {
                for room in Set(timeline.values.map(\.room)) {
                    keys.insert(HeldTimelines.Key(room: room, replica: replica))
                }
            }
            var expected: [HeldTimelines.Key: Change] = [:]
            for key in keys {
                let timeline = held.byReplica[key.replica] ?? [:]
                let accounted = max(
                    held.compactedCuts[key.room]?[key.replica] ?? 0,
                    try Self.fetchCover(db, room: key.room)[key.replica]
                )
                var seq: UInt64 = 0
                while true {
                    if let next = timeline[seq + 1], next.room == key.room {
                        seq += 1
                    } else if accounted > seq {
                        seq = accounted
                    } else {
                        break
                    }
                }
                guard seq >= 1 else { continue }
                let stamp = timeline[seq].flatMap { $0.room == key.room ? $0.stamp : nil }
                expected[key] = Change(seq: seq, stamp: stamp ?? frontiers[key]?.stamp ?? .zero)
            }
            try require(frontiers == expected, "room frontier disagrees with the changes held")
            try require(
                try count(
                    """
                    SELECT count(*) FROM blob
                    WHERE (state = 'present' AND path IS NULL AND bytes IS NULL)
                       OR (bytes IS NOT NULL AND length(bytes) <> size)
                    """
                ) == 0,
                "blob metadata contradicts itself"
            )
        }
    }

    private struct Change: Equatable {
        let seq: UInt64
        let stamp: Stamp
    }

    /// Every change held, as a row or only inside a compacted snapshot, by replica and seq.
    private struct HeldTimelines {
        struct Key: Hashable {
            let room: String
            let replica: ReplicaID
        }

        struct Held {
            let room: String
            let stamp: Stamp
        }

        var byReplica: [ReplicaID: [UInt64: Held]] = [:]
        /// Per room, the furthest cut of its compacted snapshots.
        var compactedCuts: [String: VersionVector] = [:]
    }

    /// Reads every row and every compacted snapshot, and checks that the changes only a snapshot holds
    /// are of its document and inside its cut, that cut inside its room's frontier, and that no change
    /// is held only by two snapshots. A row of its document inside its cut may be missing from it: one
    /// still in the outbox that it left out as inert, or one come late, which the next snapshot takes.
    private func heldTimelines(
        _ db: Database,
        require: (Bool, String) throws -> Void
    ) throws -> HeldTimelines {
        var held = HeldTimelines()
        var rows: [ChangeID: StoredChange] = [:]
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(StoredChange.columns) FROM change")
        while let row = try cursor.next() {
            let change = try StoredChange(row: row)
            rows[change.id] = change
            held.byReplica[change.id.replica, default: [:]][change.id.seq] = .init(
                room: change.room,
                stamp: change.stamp
            )
        }
        var inSnapshots: Set<ChangeID> = []
        for room in try String.fetchAll(db, sql: "SELECT DISTINCT room FROM snapshot WHERE compacted") {
            let frontier = try Self.fetchFrontier(db, room: room)
            for snapshot in try Self.fetchCompacted(db, room: room, document: nil) {
                try require(frontier.vector.covers(snapshot.cut.vector), "a snapshot's cut is past its room's frontier")
                let changes = try snapshotChanges(snapshot)
                // A change that still has a row is read from the row (its snapshot copy may be filed
                // otherwise when the row's metadata disagreed with its bytes, which keeps the row).
                for change in changes where rows[change.id] == nil {
                    try require(change.document == snapshot.document, "a snapshot holds another document's change")
                    try require(snapshot.cut.vector.contains(change.id), "a snapshot holds a change past its cut")
                    try require(inSnapshots.insert(change.id).inserted, "two snapshots hold one change")
                    held.byReplica[change.id.replica, default: [:]][change.id.seq] = .init(
                        room: room,
                        stamp: change.stamp
                    )
                }
                held.compactedCuts[room, default: VersionVector()].merge(snapshot.cut.vector)
            }
        }
        return held
    }
}
