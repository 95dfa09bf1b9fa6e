import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import Synchronization

@testable import InkwellWire

/// A seed for a randomised test: `INKWELL_SEED` replays one. Printed with the test's name.
func seed(_ test: String) -> UInt64 {
    let seed = SeededGenerator.seedFromEnvironment()
    print("\(test): seed \(seed) (INKWELL_SEED=\(seed) replays)")
    return seed
}

/// An edit that adds one stroke of `count` random points.
func randomStroke(board: String = "main", count: Int = 8, using random: inout SeededGenerator) -> BoardEdit {
    let points = (0..<count).map { _ in Point(random.uniform(-1_000...1_000), random.uniform(-1_000...1_000)) }
    return BoardEdit(
        board: BoardID(board),
        operations: [.addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)]
    )
}

/// A queued change of `room` with `payloadBytes` random bytes: the planner never opens payloads.
func queuedChange(
    room: String,
    replica: ReplicaID,
    seq: UInt64,
    payloadBytes: Int,
    using random: inout SeededGenerator
) -> StoredChange {
    StoredChange(
        id: ChangeID(replica: replica, seq: seq),
        stamp: Stamp(wallMilliseconds: 1_800_000_000_000 + seq),
        room: room,
        document: "main",
        schemaVersion: WireSchema.current,
        payload: randomBytes(payloadBytes, using: &random)
    )
}

/// What a pushed pack carries and who signed it, read after its signature is checked but without opening
/// its changes (the planner's tests queue random payloads, which are not changes).
func packContents(_ bytes: [UInt8]) throws -> (author: ReplicaID, room: String, changes: [[UInt8]]) {
    let (wire, author) = try PackCodec.verified(bytes, room: nil)
    let entries = try PackCodec.entries(ofBody: try PackCodec.inflate(wire), "pack body")
    return (author, wire.room, entries.map(\.change))
}

/// Keys for `count` replicas, and the replicas they own.
func authorKeys(_ count: Int, using random: inout SeededGenerator) -> [AuthorKey] {
    (0..<count).map { _ in AuthorKey(using: &random) }
}

/// Incompressible bytes, eight per draw.
func randomBytes(_ count: Int, using random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 8)
    while bytes.count < count { withUnsafeBytes(of: random.next()) { bytes.append(contentsOf: $0) } }
    return Array(bytes.prefix(count))
}

/// A wall clock that moves one millisecond per reading, so stamps are reproducible.
final class SteppingClock: WallClock {
    private let now: Mutex<UInt64>

    init(start: UInt64 = 1_800_000_000_000) {
        now = Mutex(start)
    }

    func millisecondsSince1970() -> UInt64 {
        now.withLock { now in
            now += 1
            return now
        }
    }
}

/// The system clock shifted by a fixed offset: a device with a wrong date.
struct OffsetClock: WallClock {
    let offsetMilliseconds: Int64

    func millisecondsSince1970() -> UInt64 {
        UInt64(Int64(SystemWallClock().millisecondsSince1970()) + offsetMilliseconds)
    }
}
