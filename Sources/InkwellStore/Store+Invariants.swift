import GRDB
import InkwellSync

extension Store {
    /// Checks the file and what the store maintains on top of SQLite's constraints.
    ///
    /// Throws ``InvariantViolation`` for a broken invariant (a bug, or a damaged file) and ``StoreError``
    /// when the file cannot be read.
    ///
    /// - Complexity: O(n log n); for tests and diagnostics.
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
            try require(
                try count(
                    """
                    SELECT count(*) FROM (
                        SELECT stamp, lag(stamp) OVER (PARTITION BY replica ORDER BY seq) AS previous FROM change
                    ) WHERE previous >= stamp
                    """
                ) == 0,
                "stamps do not increase along a timeline"
            )
            // A frontier names a change of its room with its stamp, every seq up to it is in the room,
            // and the next one is not.
            try require(
                try count(
                    """
                    SELECT count(*) FROM room_frontier AS f
                    WHERE NOT EXISTS (SELECT 1 FROM change AS c
                                      WHERE c.replica = f.replica AND c.seq = f.seq AND c.room = f.room
                                        AND c.stamp = f.stamp)
                       OR (SELECT count(*) FROM change AS c
                           WHERE c.replica = f.replica AND c.seq <= f.seq AND c.room = f.room) <> f.seq
                       OR EXISTS (SELECT 1 FROM change AS c
                                  WHERE c.replica = f.replica AND c.seq = f.seq + 1 AND c.room = f.room)
                    """
                ) == 0,
                "room frontier disagrees with the stored changes"
            )
            try require(
                try count(
                    """
                    SELECT count(*) FROM change AS c WHERE c.seq = 1
                    AND NOT EXISTS (SELECT 1 FROM room_frontier AS f WHERE f.room = c.room AND f.replica = c.replica)
                    """
                ) == 0,
                "a timeline's first change is outside its room's frontier"
            )
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
}
