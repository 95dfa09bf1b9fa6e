/// Bugs the deterministic simulation puts into the server on purpose (`inkwell simulate --inject`), each
/// a real way to lose or corrupt data, to show that its checks catch them, as FoundationDB's simulation
/// turns on `BUGGIFY`. Only ``SyncCore``'s and ``Compactor``'s package initializers take one; `inkwell serve` never has one.
package enum InjectedServerBug: Sendable {
    /// The ack goes out before the commit, which waits: a crash in between loses an acknowledged pack.
    case ackBeforeCommit
    /// A push of a pack already stored gets no ack: the device pushes it forever and never settles.
    case dropDuplicateAck
    /// A live pack is not sent to the room's other followers: they miss it until they reconnect.
    case skipLiveFanout
    /// A push whose commit failed (a full or failing disk) is acked all the same: the device drops a
    /// change the server never stored.
    case ackFailedCommit
    /// A compaction drops one pack more than its snapshot stands for: an acknowledged pack, perhaps never
    /// seen by another device, is gone.
    case compactPastSnapshot
}
