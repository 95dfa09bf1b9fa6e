import InkwellSync

/// Builds changes for log tests: `change(a, 3, at: 1204)` is change A:3 stamped at millisecond 1204.
func change(_ replica: ReplicaID, _ seq: UInt64, at wall: UInt64, _ payload: String = "") -> Change<String> {
    Change(id: ChangeID(replica: replica, seq: seq), stamp: Stamp(wallMilliseconds: wall), payload: payload)
}
