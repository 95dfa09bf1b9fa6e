import InkwellBoard
import InkwellGeometry
import InkwellSync

/// A replica that writes board changes for tests: contiguous seqs, stamps from its own clock.
struct Author {
    let replica: ReplicaID
    let board: BoardID
    var seq: UInt64 = 0
    var clock = HybridLogicalClock()
    var wall: UInt64 = 1_800_000_000_000

    init(_ number: UInt64, board: BoardID = "main") {
        self.replica = ReplicaID(high: number << 56, low: number)
        self.board = board
    }

    mutating func change(_ operations: BoardOperation...) -> BoardChange {
        change(operations)
    }

    mutating func change(_ operations: [BoardOperation]) -> BoardChange {
        seq += 1
        wall += 1
        let stamp = clock.next(wallMilliseconds: wall)
        return Change(
            id: ChangeID(replica: replica, seq: seq),
            stamp: stamp,
            payload: BoardEdit(board: board, operations: operations)
        )
    }

    /// Takes note of a remote change, as a replica does before making its next one.
    mutating func saw(_ change: BoardChange) {
        clock.witness(change.stamp, wallMilliseconds: wall)
    }
}

/// A horizontal line of `count` points: parameter t sits at x = 10·t.
func line(_ count: Int, y: Double = 0) -> [Point] {
    (0..<count).map { Point(Double($0) * 10, y) }
}

let pen = StrokeStyle(colour: .black, width: 2)

func add(_ points: [Point], style: StrokeStyle = pen) -> BoardOperation {
    .addStroke(style, points: points, pressures: nil)
}

func stroke(of change: BoardChange, _ index: UInt32 = 0) -> StrokeID {
    StrokeID(change: change.id, index: index)
}

func interval(_ lower: Double, _ upper: Double) -> ParameterInterval {
    ParameterInterval(lower, upper)
}

extension BoardState {
    /// Applies changes in order and returns the board.
    static func after(_ changes: [BoardChange], board: BoardID = "main") -> BoardState {
        var state = BoardState(board: board)
        for change in changes { state.apply(change) }
        return state
    }

    func pieces(_ id: StrokeID) -> [ParameterInterval]? { drawingStroke(id)?.pieces }
}
