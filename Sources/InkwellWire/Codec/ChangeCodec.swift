import Foundation
public import InkwellBoard
import InkwellGeometry
public import InkwellSync
import SwiftProtobuf

/// Board changes to and from their wire encoding (`Protos/inkwell/v1/change.proto`).
///
/// Structure is checked strictly: bytes that are not a change, a replica id that is not 16 bytes, a
/// seq of 0 or a newer schema throw ``WireError`` and nothing is decoded. An operation inside a
/// well-formed change that this code cannot read (an unknown kind, or content out of range) is kept
/// as ``BoardOperation/unknown(kind:bytes:)``: the change stays whole, so its timeline has no gap,
/// the board ignores the operation, and re-encoding writes its bytes back unchanged.
public enum ChangeCodec {
    public static func encode(_ change: BoardChange) -> [UInt8] {
        var wire = WireChange()
        wire.replica = change.id.replica.bytesData
        wire.seq = change.id.seq
        wire.stamp = change.stamp.rawValue
        wire.board = change.payload.board.rawValue
        wire.schemaVersion = WireSchema.current
        wire.operations = change.payload.operations.map { OperationCodec.encode($0, in: change.id) }
        return try! wire.serializedBytes()
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> BoardChange {
        guard bytes.count <= WireLimits.maximumChangeBytes else { throw .tooLarge("change") }
        let wire: WireChange
        do {
            wire = try WireChange(serializedBytes: bytes)
        } catch {
            throw .malformed("change")
        }
        guard wire.schemaVersion <= WireSchema.current else { throw .futureSchema(wire.schemaVersion) }
        guard let replica = ReplicaID(bytes: wire.replica) else { throw .invalidField("change.replica") }
        guard wire.seq >= 1 else { throw .invalidField("change.seq") }
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
                operations: wire.operations.map { OperationCodec.decode($0, in: id) }
            )
        )
    }
}

extension ReplicaID {
    var bytesData: Data { Data(bytes) }
}
