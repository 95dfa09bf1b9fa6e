import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

/// Changes covering every operation, for round trips and as fuzzing seeds.
enum Samples {
    /// Keys from fixed seeds, so the replicas they own (and the packs they sign) are the same every run.
    static let aliceKey = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0xA1, count: 32))
    static let bobKey = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0xB2, count: 32))
    static let alice = aliceKey.replica
    static let bob = bobKey.replica

    static func change(_ replica: ReplicaID, _ seq: UInt64, _ operations: [BoardOperation]) -> BoardChange {
        Change(
            id: ChangeID(replica: replica, seq: seq),
            stamp: Stamp(wallMilliseconds: 1_800_000_000_000 + seq, counter: UInt16(seq % 3)),
            payload: BoardEdit(board: "main", operations: operations)
        )
    }

    /// The first sample's stroke as a change at any `seq`, up to `UInt64.max`, stamped in seq order.
    static func change(_ replica: ReplicaID, seq: UInt64) -> BoardChange {
        Change(
            id: ChangeID(replica: replica, seq: seq),
            stamp: Stamp(rawValue: seq >> 8),
            payload: changes[0].payload
        )
    }

    static let stroke = StrokeID(change: ChangeID(replica: alice, seq: 1))
    static let foreignStroke = StrokeID(change: ChangeID(replica: bob, seq: 7), index: 2)

    static let wave = (0..<60).map { InkGrid.snap(Point(Double($0) * 3.3, 100 + 40 * sin(Double($0) / 7))) }

    static var changes: [BoardChange] {
        [
            change(
                alice,
                1,
                [.addStroke(StrokeStyle(colour: Colour(rgba: 0x1234_56FF), width: 2.5), points: wave, pressures: nil)]
            ),
            change(
                alice,
                2,
                [.appendPoints(stroke, points: [Point(200, 100.125), Point(203.5, 99)], pressures: [0.5, 1])]
            ),
            change(alice, 3, [.erase(foreignStroke, [ParameterInterval(1.25, 3.0625), ParameterInterval(7, 9.5)])]),
            change(
                alice,
                4,
                [
                    .set(stroke, .colour(Colour(rgba: 0xFF00_0080))),
                    .set(foreignStroke, .width(7)),
                    .set(stroke, .transform(Transform(a: 1, b: 0.5, c: -0.5, d: 1, tx: 10, ty: -3.25))),
                    .set(stroke, .zOrder(-2.5)),
                    .set(foreignStroke, .deleted(true)),
                ]
            ),
            change(alice, 5, [.undo(ChangeID(replica: alice, seq: 3)), .redo(ChangeID(replica: alice, seq: 3))]),
            change(bob, 1, [.clear]),
            change(
                bob,
                2,
                [
                    .addStroke(
                        StrokeStyle(colour: .black, width: 1),
                        points: [Point(0.1, 0.2), Point(1e-7, -3)],
                        pressures: [0.3, 0.123]
                    ),
                    .addStroke(StrokeStyle(colour: .black, width: 1), points: [Point(-5, 5)], pressures: nil),
                ]
            ),
        ]
    }
}
