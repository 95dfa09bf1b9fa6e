import InkwellBoard
import InkwellGeometry
public import InkwellSync
public import InkwellWire

/// Changes and signed packs that a real server takes, for tests of servers and clients: random strokes
/// on the 1/8 px grid, stamped now, by a key's own replica.
public enum TestStrokes {
    /// An encoded change adding a stroke of `points` random points, as `replica`'s change `seq`.
    public static func change(
        replica: ReplicaID,
        seq: UInt64,
        points: Int,
        using generator: inout some RandomNumberGenerator
    ) -> [UInt8] {
        let points = (0..<max(1, points)).map { _ in
            Point(
                Double(Int.random(in: 0...8_000, using: &generator)) / 8,
                Double(Int.random(in: 0...8_000, using: &generator)) / 8
            )
        }
        return ChangeCodec.encode(
            BoardChange(
                id: ChangeID(replica: replica, seq: seq),
                stamp: Stamp(wallMilliseconds: SystemWallClock().millisecondsSince1970()),
                payload: BoardEdit(
                    board: "main",
                    operations: [.addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)]
                )
            )
        )
    }

    /// A pack of one change of about `size` bytes, by a new key: its id and its bytes.
    public static func pack(
        room: String,
        size: Int = 64,
        using generator: inout some RandomNumberGenerator
    ) -> (id: PackID, bytes: [UInt8]) {
        let key = AuthorKey(using: &generator)
        let change = change(replica: key.replica, seq: 1, points: size / 4, using: &generator)
        let bytes = PackCodec.encode(Pack(room: room, changes: [change]), signedBy: key)
        return (PackID(of: bytes), bytes)
    }
}
