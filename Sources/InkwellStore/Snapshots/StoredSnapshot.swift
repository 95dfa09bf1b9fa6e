public import InkwellSync

/// A board's encoded state and exactly which changes it contains.
///
/// The cut is kept as rows, not inside the bytes, so the store can compute a cold open's tail without a codec.
public struct StoredSnapshot: Hashable, Sendable {
    public let room: String
    public let document: String
    /// The changes inside the state, with each timeline's last stamp.
    public let cut: Cut
    /// The schema version the bytes were encoded with.
    public let schemaVersion: UInt32
    public let bytes: [UInt8]
    /// The cut within which it left out changes that stopped mattering (empty when it left out none
    /// that way): the device's own changes not yet acknowledged stay outside it.
    public let prunedThrough: VersionVector

    public init(
        room: String,
        document: String,
        cut: Cut,
        schemaVersion: UInt32,
        bytes: [UInt8],
        prunedThrough: VersionVector = VersionVector()
    ) {
        self.room = room
        self.document = document
        self.cut = cut
        self.schemaVersion = schemaVersion
        self.bytes = bytes
        self.prunedThrough = prunedThrough
    }
}

/// What a cold open of a board reads: its snapshot, if any, and the changes not inside it.
public struct DocumentContents: Hashable, Sendable {
    public let snapshot: StoredSnapshot?
    /// The changes not inside the snapshot (all of them when there is none), and the rows inside a
    /// compacted one's cut that came late, in total order.
    public let tail: [StoredChange]
}
