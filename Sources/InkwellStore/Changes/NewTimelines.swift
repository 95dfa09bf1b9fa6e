import Foundation
import GRDB
import InkwellSync

/// The changes one append inserted, by room and timeline, for the checks that need the whole batch:
/// stamps that increase along each timeline, and each room's frontier.
///
/// A batch from a catch-up holds long runs of one timeline's consecutive changes. Checked change by
/// change, each would cost two neighbour lookups, a frontier read and a frontier write; checked as
/// runs, a run costs its two outer neighbours and a timeline one frontier read and write.
struct NewTimelines {
    struct Entry {
        let seq: Int64
        let stamp: Int64
        let id: ChangeID
        /// Its place in the batch: of two new changes out of order, the later one is refused.
        let order: Int
    }

    struct Key: Hashable {
        let room: String
        let replica: Data
    }

    private var timelines: [Key: [Entry]] = [:]
    /// The timelines in the order the batch first named them, so a batch with several faults names
    /// the same one every time.
    private var keys: [Key] = []
    private var count = 0

    mutating func note(_ change: StoredChange, replica: Data, seq: Int64, stamp: Int64) {
        let key = Key(room: change.room, replica: replica)
        let entry = Entry(seq: seq, stamp: stamp, id: change.id, order: count)
        if timelines[key]?.append(entry) == nil {
            timelines[key] = [entry]
            keys.append(key)
        }
        count += 1
    }

    /// Throws ``StoreError/stampNotMonotonic(_:)`` for a new change whose stamp is not between those
    /// of its neighbours on its timeline, stored before or new in this batch. The store's rows
    /// already include the batch (same transaction), so each run of consecutive new changes is
    /// checked inside against itself and outside against the stored changes next to it.
    ///
    /// A row removed by compaction lies inside a room frontier, below every new change of its
    /// timeline; the frontier's stamp stands in for it.
    func checkStamps(_ db: Database) throws {
        let neighbours = try db.cachedStatement(
            sql: """
                SELECT (SELECT stamp FROM change WHERE replica = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT 1),
                       (SELECT stamp FROM change WHERE replica = ?1 AND seq > ?3 ORDER BY seq LIMIT 1),
                       (SELECT stamp FROM room_frontier WHERE replica = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT 1)
                """
        )
        for key in keys {
            let sorted = timelines[key]!.sorted { $0.seq < $1.seq }
            var start = 0
            while start < sorted.count {
                var end = start
                while end + 1 < sorted.count, sorted[end + 1].seq == sorted[end].seq + 1 {
                    let (earlier, later) = (sorted[end], sorted[end + 1])
                    if earlier.stamp >= later.stamp {
                        throw StoreError.stampNotMonotonic(earlier.order > later.order ? earlier.id : later.id)
                    }
                    end += 1
                }
                let (first, last) = (sorted[start], sorted[end])
                if let row = try Row.fetchOne(neighbours, arguments: [key.replica, first.seq, last.seq]) {
                    let before = [row[0] as Int64?, row[2] as Int64?].compactMap { $0 }.max()
                    let after: Int64? = row[1]
                    if let before, before >= first.stamp { throw StoreError.stampNotMonotonic(first.id) }
                    if let after, after <= last.stamp { throw StoreError.stampNotMonotonic(last.id) }
                }
                start = end + 1
            }
        }
    }

    /// Moves each room's frontier for each timeline over the new changes and any stored ones they
    /// make contiguous.
    func advanceFrontiers(_ db: Database) throws {
        let current = try db.cachedStatement(sql: "SELECT seq FROM room_frontier WHERE room = ? AND replica = ?")
        let next = try db.cachedStatement(sql: "SELECT stamp FROM change WHERE replica = ? AND seq = ? AND room = ?")
        let write = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO room_frontier (room, replica, seq, stamp) VALUES (?, ?, ?, ?)"
        )
        for key in keys {
            let entries = timelines[key]!
            let start = try Int64.fetchOne(current, arguments: [key.room, key.replica]) ?? 0
            let new = Dictionary(entries.map { ($0.seq, $0.stamp) }, uniquingKeysWith: { first, _ in first })
            var frontier: (seq: Int64, stamp: Int64)?
            var seq = start
            while let stamp = try new[seq + 1] ?? Int64.fetchOne(next, arguments: [key.replica, seq + 1, key.room]) {
                seq += 1
                frontier = (seq, stamp)
            }
            guard let frontier else { continue }
            try write.execute(arguments: [key.room, key.replica, frontier.seq, frontier.stamp])
        }
    }
}
