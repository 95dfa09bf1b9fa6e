import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting

/// The board as a ``ReplicatedModel``: random strokes, appends, erases (several on one stroke),
/// attribute writes, undo and redo of one's own changes (erases included), clears, and settles: mostly
/// honest ones, some that lie about what is undone or settle out of bounds.
struct BoardModel: ReplicatedModel {
    var board = BoardState(board: "main")
    /// Changes in the order this replica saw them: used only to pick undo targets.
    var seen: [ChangeID] = []
    /// Every stroke any change added, visible or not: targets for operations on hidden and dead strokes.
    var strokes: [StrokeID] = []

    init() {}

    mutating func apply(_ change: BoardChange) {
        if !board.contains(change.id) {
            seen.append(change.id)
            for (index, operation) in change.payload.operations.enumerated() {
                if case .addStroke = operation { strokes.append(StrokeID(change: change.id, index: UInt32(index))) }
            }
        }
        board.apply(change)
    }

    func canonicalEncoding() -> [UInt8] { board.stateEncoding() }

    func randomOperation(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> BoardEdit {
        let me = position.change.replica
        let visible = board.drawing
        func randomVisible() -> DrawingStroke? {
            visible.isEmpty
                ? nil
                : visible[
                    visible.index(visible.startIndex, offsetBy: Int.random(in: 0..<visible.count, using: &generator))
                ]
        }
        func randomPoints() -> [Point] {
            let count = Int.random(in: 1...12, using: &generator)
            var point = Point(
                Double.random(in: 0...500, using: &generator),
                Double.random(in: 0...500, using: &generator)
            )
            return (0..<count).map { _ in
                point =
                    point
                    + Point(
                        Double.random(in: -20...20, using: &generator),
                        Double.random(in: -20...20, using: &generator)
                    )
                return point
            }
        }
        var operations: [BoardOperation] = []
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<30:
            let points = randomPoints()
            let pressures =
                Bool.random(using: &generator) ? points.map { _ in Float.random(in: 0...1, using: &generator) } : nil
            let colour = Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator))
            operations.append(
                .addStroke(
                    StrokeStyle(colour: colour, width: Double.random(in: 0.5...20, using: &generator)),
                    points: points,
                    pressures: pressures
                )
            )
        case 30..<45:
            // Append to one of my strokes (appends by others are ignored, which is tested too).
            if let target = randomVisible() {
                let points = randomPoints()
                let pressures = target.pressures.map { _ in points.map { _ in Float(0.5) } }
                operations.append(
                    .appendPoints(target.id, points: points, pressures: target.id.creator == me ? pressures : nil)
                )
            }
        case 45..<65:
            if let target = randomVisible() {
                let last = Double(target.points.count - 1)
                let cuts = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    let a = Double.random(in: -0.5...last, using: &generator)
                    return ParameterInterval(a, a + Double.random(in: 0...max(0.1, last / 2), using: &generator))
                }
                operations.append(.erase(target.id, cuts))
            }
        case 65..<77:
            if let target = randomVisible() {
                let values: [AttributeValue] = [
                    .colour(Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator))),
                    .width(Double.random(in: 1...9, using: &generator)),
                    .zOrder(Double(Int.random(in: -3...3, using: &generator))),
                    .deleted(Bool.random(using: &generator)),
                    .transform(.translation(Double.random(in: -9...9, using: &generator), 0)),
                ]
                operations.append(.set(target.id, values.randomElement(using: &generator)!))
            }
        case 77..<91:
            // Mostly changes that are not settled yet, as an honest user's undo stack holds; now and then
            // one that is, which the board must ignore.
            let mine = seen.suffix(40).filter {
                $0.replica == me
                    && (board.settledThrough(of: me) < $0.seq || Int.random(in: 0..<8, using: &generator) == 0)
            }
            if let target = mine.randomElement(using: &generator) {
                operations.append(board.isActive(target) ? .undo(target) : .redo(target))
            }
        case 91..<94:
            // An operation on any stroke ever added: hidden, erased away, dead or another replica's.
            if let target = strokes.randomElement(using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: operations.append(.erase(target, [ParameterInterval(0, 1)]))
                case 1: operations.append(.set(target, .deleted(Bool.random(using: &generator))))
                case 2: operations.append(.appendPoints(target, points: randomPoints(), pressures: nil))
                default: operations.append(.set(target, .zOrder(Double(Int.random(in: -3...3, using: &generator)))))
                }
            }
        case 94..<97:
            operations.append(.clear)
        default:
            operations.append(randomSettle(at: position, using: &generator))
        }
        if operations.isEmpty { operations.append(.addStroke(pen, points: randomPoints(), pressures: nil)) }
        return BoardEdit(board: "main", operations: operations)
    }

    /// A settle of the author's changes up to the last few it saw of its own: honest (its undone ones, as
    /// the board says), or one in eight lying about which are undone or reaching out of bounds.
    func randomSettle(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> BoardOperation {
        let me = position.change.replica
        let seq = position.change.seq
        if Int.random(in: 0..<8, using: &generator) == 0 {
            let through = UInt64.random(in: 0...seq + 1, using: &generator)
            let inactive = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                UInt64.random(in: 0...max(through, 1) + 1, using: &generator)
            }
            return .settle(through: through, inactive: inactive)
        }
        let recent = seen.suffix(40).filter { $0.replica == me }.map(\.seq).min() ?? seq
        let through = max(board.settledThrough(of: me) + 1, recent > 1 ? recent - 1 : 1)
        return board.settlement(of: me, through: min(through, seq - 1)) ?? .settle(through: 0, inactive: [])
    }
}
