import CompressNIO
import Foundation
public import InkwellBoard
public import InkwellSync
import NIOCore
import SwiftProtobuf

/// A board's state as the changes it contains, with their cut: what a cold open starts from.
///
/// It holds the changes themselves, not a summary of them, so nothing is lost: undo of a change
/// inside it still works, and the state it restores is exactly the state those changes make.
public struct BoardSnapshot: Sendable {
    public var room: String
    public var board: BoardID
    public var cut: Cut
    /// Encoded changes, as stored.
    public var changes: [[UInt8]]

    public init(room: String, board: BoardID, cut: Cut, changes: [[UInt8]]) {
        self.room = room
        self.board = board
        self.cut = cut
        self.changes = changes
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
        state.reserveCapacity(changes: changes.count + tail.count)
        for bytes in changes { state.apply(try ChangeCodec.decode(bytes)) }
        for bytes in tail { state.apply(try ChangeCodec.decode(bytes)) }
        return state
    }

    /// The snapshot's bytes, compressed as a snapshot stored on the device is unless told otherwise
    /// (see ``PackCodec/Compression/snapshot``; one sent over the network takes
    /// ``PackCodec/Compression/deflate``).
    public func encoded(compression: PackCodec.Compression = .snapshot) -> [UInt8] {
        let plain = PackCodec.body(changes.lazy.map { (room: "", change: $0) })
        var wire = WireSnapshot()
        wire.schemaVersion = WireSchema.current
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
        guard wire.schemaVersion <= WireSchema.current else { throw .futureSchema(wire.schemaVersion) }
        var cut = Cut()
        for entry in wire.cut {
            guard let replica = ReplicaID(bytes: entry.replica), entry.seq >= 1 else {
                throw .invalidField("snapshot.cut")
            }
            cut.include(ChangeID(replica: replica, seq: entry.seq), Stamp(rawValue: entry.stamp))
        }
        var envelope = WirePack()
        envelope.compression = wire.compression
        envelope.body = wire.state
        envelope.bodySize = wire.stateSize
        let body = try PackCodec.entries(ofBody: try PackCodec.inflate(envelope), "snapshot state")
        self.init(room: wire.room, board: BoardID(wire.board), cut: cut, changes: body.map(\.change))
    }
}

extension BoardSnapshot {
    /// This snapshot with more changes inside it and its cut moved to `cut`.
    ///
    /// The caller guarantees that every change of the board inside `cut` is either already in the
    /// snapshot or among `changes`: true when `cut` is the room's contiguous frontier.
    public func extended(with changes: [[UInt8]], to cut: Cut) -> BoardSnapshot {
        BoardSnapshot(room: room, board: board, cut: self.cut.merged(with: cut), changes: self.changes + changes)
    }
}
