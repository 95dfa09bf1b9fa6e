import Foundation
public import InkwellBoard
import InkwellGeometry
public import InkwellSync
import SwiftProtobuf

/// Board changes to and from their wire encoding (`Protos/inkwell/v1/change.proto`).
///
/// Structure is checked strictly: bytes that are not a change, a replica id that is not 16 bytes, a
/// seq of 0 or past ``WireLimits/maximumSeq``, or a newer schema throw ``WireError`` and nothing is
/// decoded. An operation inside a well-formed change that this code cannot read (an unknown kind, or
/// content out of range) is kept as ``BoardOperation/unknown(kind:bytes:)``: the change stays whole, so
/// its timeline has no gap, the board ignores the operation, and re-encoding writes its bytes back
/// unchanged.
public enum ChangeCodec {
    /// - Complexity: O(size of the change).
    public static func encode(_ change: BoardChange) -> [UInt8] {
        // A `Change` message, written directly (see ``WireWriter``) into one array of its exact size;
        // `generatedEncoding(_:)` is the reference.
        let operations = change.payload.operations.map { OperationLayout($0, in: change.id) }
        let board = change.payload.board.rawValue
        let size =
            headerSize(
                change.id,
                stamp: change.stamp.rawValue,
                boardBytes: board.utf8.count,
                schemaVersion: WireSchema.current
            )
            + operations.reduce(0) { $0 + WireWriter.fieldSize($1.size) }
        var wire = WireWriter(capacity: size)
        writeHeader(change.id, stamp: change.stamp.rawValue, board: board, schemaVersion: WireSchema.current, to: &wire)
        for operation in operations {
            wire.key(6, 2)
            wire.varint(UInt64(operation.size))
            operation.write(to: &wire)
        }
        assert(wire.bytes.count == size, "a change is written at the size it was measured at")
        return wire.bytes
    }

    /// The fields of a `Change` before its operations, as ``encode(_:)`` writes them.
    static func writeHeader(
        _ id: ChangeID,
        stamp: UInt64,
        board: String,
        schemaVersion: UInt32,
        to wire: inout WireWriter
    ) {
        wire.field(1, id.replica)
        wire.varintField(2, id.seq)
        wire.fixed64Field(3, stamp)
        if !board.isEmpty { wire.field(4, board.utf8) }
        wire.varintField(5, UInt64(schemaVersion))
    }

    /// The size of what ``writeHeader(_:stamp:board:schemaVersion:to:)`` writes.
    static func headerSize(_ id: ChangeID, stamp: UInt64, boardBytes: Int, schemaVersion: UInt32) -> Int {
        18 + (id.seq == 0 ? 0 : 1 + WireWriter.varintSize(id.seq)) + (stamp == 0 ? 0 : 9)
            + (boardBytes == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(boardBytes)) + boardBytes)
            + (schemaVersion == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(schemaVersion)))
    }

    /// The operations at `ranges` of `source`, decoded for the change `id`: ink read directly, the
    /// rest through the generated decoder.
    static func operations(
        _ ranges: some Collection<Range<Int>>,
        of source: [UInt8],
        in id: ChangeID
    ) -> [BoardOperation] {
        ranges.map { WireReader.inkOperation(source, $0, in: id) ?? OperationCodec.decode(Array(source[$0]), in: id) }
    }

    /// The same bytes as ``encode(_:)``, through the generated messages: the reference it is tested against.
    static func generatedEncoding(_ change: BoardChange) -> [UInt8] {
        var wire = WireChange()
        wire.replica = change.id.replica.bytesData
        wire.seq = change.id.seq
        wire.stamp = change.stamp.rawValue
        wire.board = change.payload.board.rawValue
        wire.schemaVersion = WireSchema.current
        wire.operations = change.payload.operations.map { OperationCodec.encode($0, in: change.id) }
        return try! wire.serializedBytes()
    }

    /// - Complexity: O(size of the change).
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> BoardChange {
        guard bytes.count <= WireLimits.maximumChangeBytes else { throw .tooLarge("change") }
        // Canonical bytes are read directly (see ``WireReader``); the generated decoder judges the rest.
        let wire: ChangeFields
        if let fields = WireReader.change(bytes) {
            wire = fields
        } else {
            do {
                let message = try WireChange(serializedBytes: bytes)
                wire = ChangeFields(
                    replica: ArraySlice(message.replica),
                    seq: message.seq,
                    stamp: message.stamp,
                    board: message.board,
                    schemaVersion: message.schemaVersion,
                    operations: message.operations
                )
            } catch {
                throw .malformed("change")
            }
        }
        guard wire.schemaVersion <= WireSchema.current else { throw .futureSchema(wire.schemaVersion) }
        guard let replica = ReplicaID(bytes: wire.replica) else { throw .invalidField("change.replica") }
        guard wire.seq >= 1, wire.seq <= WireLimits.maximumSeq else { throw .invalidField("change.seq") }
        guard !wire.board.isEmpty, wire.board.utf8.count <= WireLimits.maximumNameBytes else {
            throw .invalidField("change.board")
        }
        guard wire.operations.count <= WireLimits.maximumOperationsPerChange else { throw .tooLarge("operations") }
        let id = ChangeID(replica: replica, seq: wire.seq)
        return Change(
            id: id,
            stamp: Stamp(rawValue: wire.stamp),
            payload: BoardEdit(
                board: BoardID(wire.board),
                operations: operations(wire.operations, of: wire.source, in: id)
            )
        )
    }
}

extension ReplicaID {
    var bytesData: Data { Data(bytes) }
}
