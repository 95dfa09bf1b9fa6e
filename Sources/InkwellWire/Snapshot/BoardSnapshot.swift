import CompressNIO
import Foundation
public import InkwellBoard
public import InkwellSync
import NIOCore
import SwiftProtobuf

/// A board's state as the changes it contains, with their cut: what a cold open starts from.
///
/// It holds the changes themselves, not a summary of them, so nothing is lost: undo of a change
/// inside it still works, and the state it restores is exactly the state those changes make. They
/// are held, and stored, by column (``ChangeColumns``), where what repeats from change to change
/// costs almost nothing.
public struct BoardSnapshot: Sendable {
    /// The snapshot schema this code writes: 2, changes by column (1 held them as a pack body, and
    /// is still read). A snapshot of a newer schema is refused, never taken for an empty one.
    public static let schemaVersion: UInt32 = 2

    public var room: String
    public let board: BoardID
    public var cut: Cut
    var columns: ChangeColumns

    /// Encoded changes, each exactly as it was given.
    ///
    /// - Complexity: O(size of the changes): they are made from the columns.
    public var changes: [[UInt8]] { columns.encodedChanges }

    /// The number of changes inside.
    public var changeCount: Int { columns.count }

    public init(room: String, board: BoardID, cut: Cut, changes: [[UInt8]]) {
        self.init(room: room, board: board, cut: cut, columns: ChangeColumns(board: board))
        columns.append(contentsOf: changes)
    }

    init(room: String, board: BoardID, cut: Cut, columns: ChangeColumns) {
        self.room = room
        self.board = board
        self.cut = cut
        self.columns = columns
    }

    /// The snapshot of everything `log` holds for a board.
    public init(room: String, board: BoardID, changes: [BoardChange]) {
        var cut = Cut()
        for change in changes.sorted(by: { $0.id < $1.id }) { cut.include(change.id, change.stamp) }
        self.init(room: room, board: board, cut: cut, changes: changes.map(ChangeCodec.encode))
    }

    /// The board these changes make, with `tail` (changes after the snapshot) applied on top.
    ///
    /// - Complexity: O(size of the changes).
    public func restore(adding tail: [[UInt8]] = []) throws(WireError) -> BoardState {
        var state = BoardState(board: board)
        state.reserveCapacity(changes: changeCount + tail.count)
        try columns.forEachChange { state.apply($0) }
        for bytes in tail { state.apply(try ChangeCodec.decode(bytes)) }
        return state
    }

    /// The snapshot's bytes, compressed as a snapshot stored on the device is unless told otherwise
    /// (see ``PackCodec/Compression/snapshot``; one sent over the network takes
    /// ``PackCodec/Compression/deflate``).
    public func encoded(compression: PackCodec.Compression = .snapshot) -> [UInt8] {
        let plain: [UInt8] = try! columns.wire.serializedBytes()
        var wire = WireSnapshot()
        wire.schemaVersion = Self.schemaVersion
        wire.room = room
        wire.board = board.rawValue
        wire.cut = cut.vector.entries.keys.sorted().map { replica in
            var entry = WireCutEntry()
            entry.replica = replica.bytesData
            entry.seq = cut.vector[replica]
            entry.stamp = cut.stamps[replica]!.rawValue
            return entry
        }
        let (state, deflated) = PackCodec.compress(plain, compression)
        wire.compression = deflated ? .deflate : .none
        wire.state = Data(state)
        wire.stateSize = UInt32(plain.count)
        return try! wire.serializedBytes()
    }

    public init(decoding bytes: [UInt8]) throws(WireError) {
        guard bytes.count <= WireLimits.maximumPackBodyBytes else { throw .tooLarge("snapshot") }
        let wire: WireSnapshot
        do {
            wire = try WireSnapshot(serializedBytes: bytes)
        } catch {
            throw .malformed("snapshot")
        }
        guard wire.schemaVersion <= Self.schemaVersion else { throw .futureSchema(wire.schemaVersion) }
        var cut = Cut()
        for entry in wire.cut {
            guard let replica = ReplicaID(bytes: entry.replica), entry.seq >= 1, entry.seq <= WireLimits.maximumSeq
            else {
                throw .invalidField("snapshot.cut")
            }
            cut.include(ChangeID(replica: replica, seq: entry.seq), Stamp(rawValue: entry.stamp))
        }
        var envelope = WirePack()
        envelope.compression = wire.compression
        envelope.body = wire.state
        envelope.bodySize = wire.stateSize
        let state = try PackCodec.inflate(envelope)
        let board = BoardID(wire.board)
        guard wire.schemaVersion >= 2 else {
            let body = try PackCodec.entries(ofBody: state, "snapshot state")
            self.init(room: wire.room, board: board, cut: cut, changes: body.map(\.change))
            return
        }
        let columns: WireChangeColumns
        do {
            columns = try WireChangeColumns(serializedBytes: state)
        } catch {
            throw .malformed("snapshot state")
        }
        self.init(room: wire.room, board: board, cut: cut, columns: try ChangeColumns(board: board, decoding: columns))
    }
}

extension BoardSnapshot {
    /// This snapshot with more changes inside it and its cut moved to `cut`.
    ///
    /// The caller guarantees that every change of the board inside `cut` is either already in the
    /// snapshot or among `changes`: true when `cut` is the room's contiguous frontier.
    public func extended(with changes: [[UInt8]], to cut: Cut) -> BoardSnapshot {
        var extended = self
        extended.cut = self.cut.merged(with: cut)
        extended.columns.append(contentsOf: changes)
        return extended
    }
}
