public import InkwellSync

/// Versions and limits of the sync protocol spoken over one WebSocket (`Protos/inkwell/v1/sync.proto`).
public enum SyncProtocol {
    /// The version this code speaks.
    /// Version 2: packs are signed by their author's key and named by the SHA-256 of their bytes.
    /// Version 3: rooms are guarded by capabilities (`subscribe` carries one, `access` answers it), and
    /// encrypted rooms seal packs and presence; a version-2 client knows neither.
    /// Version 4: room snapshots (packs whose envelope carries a `SnapshotCover`), `snapshot_checked`,
    /// and catch-up that starts from a snapshot (`packs.rebase`) once the server has dropped the packs it
    /// stands for. A version-3 client is still served, except from before such a snapshot.
    public static let version: UInt32 = 4
    /// The oldest version this code still speaks.
    public static let minimumVersion: UInt32 = 3
    /// One frame as received: larger ones are refused before they are parsed.
    public static let maximumFrameBytes = WireLimits.maximumPackBodyBytes + (1 << 20)
    /// How far ahead of the receiver's clock a change's stamp may be: a server refuses a push with a
    /// change stamped later than its own clock plus this, and a client keeps such a change aside until
    /// its clock catches up. So no stamp near the end of time can freeze a clock or win every write.
    public static let maximumStampLeadMilliseconds = HybridLogicalClock.maximumLeadMilliseconds
    /// A server error frame's message, in UTF-8 bytes.
    public static let maximumErrorMessageBytes = 4_096
    /// A presence payload (cursor and in-progress ink).
    public static let maximumPresenceBytes = 64 << 10

    /// Whether `room` is a valid room name: 1–128 of `A–Z a–z 0–9 . _ -`, so names are safe in URLs,
    /// file names and logs.
    public static func isValidRoom(_ room: String) -> Bool {
        !room.isEmpty && room.utf8.count <= 128
            && room.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }
}
