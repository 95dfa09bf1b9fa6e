import GRDB
public import InkwellSync

extension Store {
    /// The highest seq of `replica` the server has acknowledged: its last stored change before the
    /// first one still queued (its last stored change when none is queued).
    ///
    /// - Complexity: O(log n).
    public func acknowledgedSeq(of replica: ReplicaID) throws -> UInt64 {
        let queued = try read { db in
            try Int64.fetchOne(
                db,
                sql: "SELECT MIN(seq) FROM outbox WHERE replica = ?",
                arguments: [SQLValues.replica(replica)]
            )
        }
        if let queued, let seq = SQLValues.unsigned(stored: queued) { return seq - 1 }
        return try lastSeq(of: replica)
    }
}
