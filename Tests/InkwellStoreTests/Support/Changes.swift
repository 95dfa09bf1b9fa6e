import Foundation
import InkwellStore
import InkwellSync

/// Replicas A, B and C with readable ids.
let a = ReplicaID(high: 0xA << 60, low: 1)
let b = ReplicaID(high: 0xB << 60, low: 2)
let c = ReplicaID(high: 0xC << 60, low: 3)

/// Change `seq` of `replica`, stamped at `wall` ms, with a payload derived from its id unless given.
func change(
    _ replica: ReplicaID,
    _ seq: UInt64,
    at wall: UInt64? = nil,
    room: String = "room",
    board: String = "board",
    payload: [UInt8]? = nil,
    entities: [String]? = nil
) -> StoredChange {
    StoredChange(
        id: ChangeID(replica: replica, seq: seq),
        stamp: Stamp(wallMilliseconds: wall ?? 1_000 + seq * 10 + replica.low % 10),
        room: room,
        document: board,
        schemaVersion: 1,
        payload: payload ?? Array("\(replica.shortDescription):\(seq)".utf8),
        entities: entities ?? ["stroke-\(replica.shortDescription)-\(seq)"]
    )
}

/// Reads the seed from `INKWELL_SEED` or draws one, and prints it so any failure can be replayed.
func testSeed(_ test: String) -> UInt64 {
    let seed =
        ProcessInfo.processInfo.environment["INKWELL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    print("\(test): seed \(seed) (set INKWELL_SEED=\(seed) to replay)")
    return seed
}
