/// Versions and limits of the sync protocol spoken over one WebSocket (`Protos/inkwell/v1/sync.proto`).
public enum SyncProtocol {
    /// The version this code speaks.
    public static let version: UInt32 = 1
    /// The oldest version this code still speaks.
    public static let minimumVersion: UInt32 = 1
    /// One frame as received: larger ones are refused before they are parsed.
    public static let maximumFrameBytes = WireLimits.maximumPackBodyBytes + (1 << 20)
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
