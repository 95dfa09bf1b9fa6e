/// Counters of one client's traffic since it was made: for diagnostics, and for tests that check how
/// much a reconnection downloads.
public struct SyncStatistics: Hashable, Sendable {
    /// Connection attempts, successful or not.
    public var connectionAttempts = 0
    /// Connections the server welcomed.
    public var connectionsOpened = 0
    public var framesReceived = 0
    /// Bytes of every frame received.
    public var bytesReceived = 0
    /// Packs received in `packs` frames, and their bytes.
    public var packsReceived = 0
    public var packBytesReceived = 0
    /// Received changes that were new to the store.
    public var changesStored = 0
    /// Received packs or changes from a newer schema, or stamped too far ahead, kept aside.
    public var itemsSetAside = 0
    /// Received packs refused for their signature, author or room: kept aside, never applied.
    public var packsRefused = 0
    /// Received changes that did not decode or that the store refused, skipped.
    public var changesRejected = 0
    /// Pushes sent, counting packs pushed again after a reconnection.
    public var packsPushed = 0
    /// Local changes the server acknowledged, each counted once as it left the outbox (by its ack, or by
    /// coming back in a catch-up).
    public var changesAcknowledged = 0
    /// Room snapshots received whole and found consistent with what this device holds.
    public var snapshotsChecked = 0
    /// Room snapshots received whole and refused (see ``SnapshotReview``): never taken.
    public var snapshotsRefused = 0
    /// Room snapshots this device made and sent.
    public var snapshotsUploaded = 0
    /// Times a room was caught up from a snapshot because the server no longer kept its early packs.
    public var rebases = 0

    public init() {}
}
