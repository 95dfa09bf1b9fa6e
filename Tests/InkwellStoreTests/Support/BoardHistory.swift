import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Synchronization

/// A real board change, encoded as the store holds it.
func boardChange(
    _ replica: ReplicaID,
    _ seq: UInt64,
    at wall: UInt64? = nil,
    room: String = "room",
    board: String = "board",
    operations: [BoardOperation]? = nil
) -> StoredChange {
    let id = ChangeID(replica: replica, seq: seq)
    let change = BoardChange(
        id: id,
        stamp: Stamp(wallMilliseconds: wall ?? 1_000 + seq * 10 + replica.low % 10),
        payload: BoardEdit(
            board: BoardID(board),
            operations: operations ?? [
                .addStroke(
                    StrokeStyle(colour: .black, width: 2),
                    points: [Point(Double(seq), 0), Point(Double(seq), 9)],
                    pressures: nil
                )
            ]
        )
    )
    return StoredChange(change, room: room).withEntities(["stroke-\(id)"])
}

extension StoredChange {
    /// The same change with other entities.
    func withEntities(_ entities: [String]) -> StoredChange {
        StoredChange(
            id: id,
            stamp: stamp,
            room: room,
            document: document,
            type: type,
            schemaVersion: schemaVersion,
            payload: payload,
            entities: entities
        )
    }
}

/// A seeded history of real board changes: replicas A and B draw, erase and undo on two boards of
/// room "room", C on the board of room "elsewhere". Each timeline's stamps rise.
struct BoardHistory {
    static let documents = [
        DocumentKey(room: "room", document: "board"), DocumentKey(room: "room", document: "other"),
        DocumentKey(room: "elsewhere", document: "board"),
    ]

    private(set) var changes: [StoredChange] = []

    /// - Parameter settling: whether authors also delete strokes, clear boards and settle their undone
    ///   changes, so that much of the history stops mattering (``DocumentTypes/inertChanges(among:through:)``).
    init(using random: inout SeededGenerator, settling: Bool = false) {
        for replica in [a, b, c] {
            var strokes: [String: [ChangeID]] = [:]
            var undone: [String: Set<UInt64>] = [:]
            var wall: UInt64 = 1_000
            for seq in 1...UInt64.random(in: 10...60, using: &random) * (settling ? 2 : 1) {
                let (room, board) =
                    replica == c ? ("elsewhere", "board") : ("room", Bool.random(using: &random) ? "board" : "other")
                let earlier = strokes[board, default: []]
                let id = ChangeID(replica: replica, seq: seq)
                let operation: BoardOperation
                switch Int.random(in: 0..<(settling ? 14 : 10), using: &random) {
                case 0 where !earlier.isEmpty:
                    operation = .erase(
                        StrokeID(change: earlier.randomElement(using: &random)!),
                        [ParameterInterval(0, 0.5)]
                    )
                case 1 where !earlier.isEmpty:
                    let target = earlier.randomElement(using: &random)!
                    operation = .undo(target)
                    undone[board, default: []].insert(target.seq)
                case 10 where !earlier.isEmpty:
                    operation = .set(StrokeID(change: earlier.randomElement(using: &random)!), .deleted(true))
                case 11 where seq > 1:
                    // Settles this timeline through the previous change, its undone strokes inactive; the
                    // other changes of the timeline (its other board's) are all active.
                    operation = .settle(through: seq - 1, inactive: undone.values.flatMap { $0 }.sorted())
                case 12 where Int.random(in: 0..<4, using: &random) == 0:
                    operation = .clear
                default:
                    let points = (0..<Int.random(in: 2...8, using: &random)).map { _ in
                        Point(random.uniform(0...500), random.uniform(0...500))
                    }
                    operation = .addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)
                    strokes[board, default: []].append(id)
                }
                wall += UInt64.random(in: 1...30, using: &random)
                changes.append(boardChange(replica, seq, at: wall, room: room, board: board, operations: [operation]))
            }
        }
    }

    /// The changes in batches of random sizes and random order, some repeated: gaps open and fill,
    /// and duplicates arrive. Every change is in at least one batch.
    func deliveries(using random: inout SeededGenerator) -> [[StoredChange]] {
        var remaining = changes.shuffled(using: &random)
        var delivered: [StoredChange] = []
        var batches: [[StoredChange]] = []
        while !remaining.isEmpty {
            let count = Int.random(in: 1...min(25, remaining.count), using: &random)
            var batch = Array(remaining.prefix(count))
            remaining.removeFirst(count)
            for _ in 0..<Int.random(in: 0...3, using: &random) where !delivered.isEmpty {
                batch.append(delivered.randomElement(using: &random)!)
            }
            delivered += batch
            batches.append(batch.shuffled(using: &random))
        }
        return batches
    }
}

/// The board a cold open makes: the snapshot, if any, and the changes after it.
func coldOpenBoard(_ store: Store, room: String, document: String) throws -> BoardState {
    let contents = try store.coldOpen(room: room, document: document)
    let snapshot =
        try contents.snapshot.map { try DocumentSnapshot(decoding: $0.bytes) }
        ?? DocumentSnapshot(room: room, document: document, changes: [BoardChange]())
    return try snapshot.restore(as: BoardState.self, adding: contents.tail.map(\.payload))
}

/// The board `changes` make, applied in one batch.
func board(_ document: String, of changes: [StoredChange]) throws -> BoardState {
    var board = BoardState(board: BoardID(document))
    _ = board.apply(contentsOf: try changes.map { try $0.decoded(as: BoardEdit.self) })
    return board
}

/// A wall clock the test moves by hand, for the store's ``Store/Configuration/now``.
final class ManualClock: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(by interval: Duration) {
        date.withLock { $0 += Double(interval.components.seconds) + Double(interval.components.attoseconds) * 1e-18 }
    }
}
