import InkwellBoard
import InkwellSync
import InkwellWire

/// One device of the side-by-side workloads, doing what an Inkwell client does for each edit in memory:
/// stamp it with the hybrid logical clock (reading the wall clock), apply it to the board, encode it for
/// the wire, and keep the encoded change in its change log (the history, as the store keeps it).
struct BenchReplica {
    /// The key that signs this device's packs, and owns its replica.
    let key: AuthorKey
    var replica: ReplicaID { key.replica }
    private(set) var seq: UInt64 = 0
    private(set) var clock = HybridLogicalClock()
    private(set) var board: BoardState
    /// Encoded changes by id and total order: what a peer that lacks some is sent.
    private(set) var log = ChangeLog<[UInt8]>()
    private let wall = SystemWallClock()

    init(random: inout SplitMix64, board: BoardID = "board") {
        key = AuthorKey(using: &random)
        self.board = BoardState(board: board)
    }

    /// A new device holding the changes of `snapshot`: what a fork of a board starts from.
    init(random: inout SplitMix64, restoring snapshot: DocumentSnapshot) throws {
        self.init(random: &random, board: BoardID(snapshot.document))
        for bytes in snapshot.changes { try receive(change: bytes) }
    }

    /// Makes a local change: stamps it, applies it, encodes it and logs it. Returns its wire bytes.
    ///
    /// - Complexity: O(size of the change).
    @discardableResult
    mutating func commit(_ operations: [BoardOperation]) -> [UInt8] {
        seq += 1
        let change = BoardChange(
            id: ChangeID(replica: replica, seq: seq),
            stamp: clock.next(wallMilliseconds: wall.millisecondsSince1970()),
            payload: BoardEdit(board: board.board, operations: operations)
        )
        board.apply(change)
        let bytes = ChangeCodec.encode(change)
        try! log.insert(Change(id: change.id, stamp: change.stamp, payload: bytes))
        return bytes
    }

    /// Decodes and applies a change from elsewhere, logs it, and lets the clock witness its stamp.
    mutating func receive(change bytes: [UInt8]) throws {
        clock.witness(try take(change: bytes), wallMilliseconds: wall.millisecondsSince1970())
    }

    /// Applies every change of an encoded pack (opened with `key` when it is sealed); the clock witnesses
    /// the pack's latest stamp once, as `SyncClient` does for the packs of a frame.
    mutating func receive(pack bytes: [UInt8], key: RoomKey? = nil) throws {
        let changes = try PackCodec.decode(bytes, key: key).changes
        board.reserveCapacity(changes: changes.count)
        var latest: Stamp?
        for change in changes {
            let stamp = try take(change: change)
            latest = max(latest ?? stamp, stamp)
        }
        if let latest { clock.witness(latest, wallMilliseconds: wall.millisecondsSince1970()) }
    }

    /// Decodes, applies and logs a change; returns its stamp.
    private mutating func take(change bytes: [UInt8]) throws -> Stamp {
        let change = try ChangeCodec.decode(bytes, as: BoardEdit.self)
        board.apply(change)
        try log.insert(Change(id: change.id, stamp: change.stamp, payload: bytes))
        return change.stamp
    }

    /// Makes room for `count` more changes, when a bulk load knows how many come.
    mutating func reserveCapacity(changes count: Int) {
        board.reserveCapacity(changes: count)
    }

    /// The changes a peer holding `vector` lacks, as one pack (deflated unless told) signed by this device: the
    /// workloads exchange only changes the sender made itself (a pack carries its signer's changes).
    func pack(
        for vector: VersionVector,
        room: String = "bench",
        compression: PackCodec.Compression = .deflate
    ) -> [UInt8] {
        let missing = log.changes(notIn: vector)
        precondition(missing.allSatisfy { $0.id.replica == replica }, "a bench pack holds its signer's changes")
        return PackCodec.encode(
            Pack(room: room, changes: missing.map(\.payload)),
            signedBy: key,
            compression: compression
        )
    }

    /// The board's snapshot: every logged change, with the cut, compressed as a snapshot stored on the
    /// device is unless told otherwise (``PackCodec/Compression/snapshot``).
    func snapshot(room: String = "bench", compression: PackCodec.Compression = .snapshot) -> [UInt8] {
        DocumentSnapshot(
            room: room,
            document: board.board.rawValue,
            type: BoardEdit.documentType,
            schemaVersion: BoardEdit.schemaVersion,
            cut: log.frontierCut,
            changes: log.inOrder.map(\.payload)
        )
        .encoded(compression: compression)
    }

    /// The stroke added by this replica's change `seq` (each added stroke is its change's only operation).
    func stroke(seq: UInt64) -> StrokeID {
        StrokeID(change: ChangeID(replica: replica, seq: seq))
    }
}

/// The version vector as a peer sends it: per timeline, the 16-byte replica and the seq as a varint.
///
/// Inkwell's own sync goes through a server, which tracks positions in its log; two peers exchanging
/// directly, as the anchors' libraries do, need this much.
enum VectorCodec {
    static func encode(_ vector: VersionVector) -> [UInt8] {
        var bytes: [UInt8] = []
        append(varint: UInt64(vector.entries.count), to: &bytes)
        for (replica, seq) in vector.entries.sorted(by: { $0.key < $1.key }) {
            bytes += replica.bytes
            append(varint: seq, to: &bytes)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> VersionVector {
        var index = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        var entries: [ReplicaID: UInt64] = [:]
        for _ in 0..<varint() {
            let replica = ReplicaID(bytes: bytes[index..<index + 16])!
            index += 16
            entries[replica] = varint()
        }
        return VersionVector(entries)
    }

    private static func append(varint value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
