import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting

/// The board as a ``ReplicatedModel``: random strokes, appends, erases (several on one stroke),
/// attribute writes, undo and redo of one's own changes (erases included), clears, text boxes typed and
/// trimmed by everyone, and settles: mostly honest ones, some that lie about what is undone or settle out of
/// bounds.
struct BoardModel: ReplicatedModel {
    var board = BoardState(board: "main")
    /// Changes in the order this replica saw them: used only to pick undo targets.
    var seen: [ChangeID] = []
    /// Every stroke any change added, visible or not: targets for operations on hidden and dead strokes.
    var strokes: [StrokeID] = []
    /// Every text box any change added.
    var boxes: [StrokeID] = []

    init() {}

    mutating func apply(_ change: BoardChange) {
        if !board.contains(change.id) {
            seen.append(change.id)
            for (index, operation) in change.payload.operations.enumerated() {
                switch operation {
                case .addStroke: strokes.append(StrokeID(change: change.id, index: UInt32(index)))
                case .addText: boxes.append(StrokeID(change: change.id, index: UInt32(index)))
                default: break
                }
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
        case 26..<30:
            operations.append(contentsOf: randomText(at: position, using: &generator))
        case 0..<26:
            let points = randomPoints()
            let pressures =
                Bool.random(using: &generator) ? points.map { _ in Float.random(in: 0...1, using: &generator) } : nil
            let colour = Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator))
            let brush: Brush = Int.random(in: 0..<6, using: &generator) == 0 ? .highlighter : .pen
            operations.append(
                .addStroke(
                    StrokeStyle(colour: colour, width: Double.random(in: 0.5...20, using: &generator), brush: brush),
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
                    .fill(Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator) & 0xFFFF_FF0F)),
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
                switch Int.random(in: 0..<5, using: &generator) {
                case 4: operations.append(.insertText(target, after: nil, text: "ink"))
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

    /// Text: a new box with its first words, or words typed into a box (visible or not, anyone's) at a
    /// random place, or a few of its characters deleted.
    func randomText(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> [BoardOperation] {
        let words = ["a", "ink", " ", "é", "😀", "\n", "well", "x y"]
        if Int.random(in: 0..<5, using: &generator) == 0 {
            let sides = (0..<4).map { _ in Double(Int.random(in: 8...400, using: &generator)) }
            let image = BoardImage(
                blob: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) },
                byteCount: UInt64.random(in: 1...1_000_000, using: &generator),
                type: ["image/png", "image/jpeg", "image/gif", "image/webp"].randomElement(using: &generator)!,
                width: sides[0],
                height: sides[1]
            )
            return [.addImage(image, at: Point(sides[2], sides[3]))]
        }
        guard let box = boxes.randomElement(using: &generator), Int.random(in: 0..<4, using: &generator) > 0 else {
            let box = StrokeID(change: position.change, index: 0)
            return [
                .addText(
                    TextStyle(
                        colour: Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator)),
                        size: Double(Int.random(in: 8...40, using: &generator))
                    ),
                    at: Point(
                        Double(Int.random(in: 0...400, using: &generator)),
                        Double(Int.random(in: 0...400, using: &generator))
                    )
                ),
                .insertText(box, after: nil, text: words.randomElement(using: &generator)!),
            ]
        }
        let characters = board.characters(of: box)
        if !characters.isEmpty, Int.random(in: 0..<3, using: &generator) == 0 {
            let start = Int.random(in: 0..<characters.count, using: &generator)
            let end = min(characters.count, start + Int.random(in: 1...3, using: &generator))
            let ranges = characters[start..<end].map {
                TextRange(run: $0.anchor.run, offsets: $0.anchor.offset..<$0.anchor.offset + 1)
            }
            return [.deleteText(box, ranges)]
        }
        let after = characters.isEmpty ? nil : characters.randomElement(using: &generator)!.anchor
        return [
            .insertText(
                box,
                after: Bool.random(using: &generator) ? after : nil,
                text: words.randomElement(using: &generator)!
            )
        ]
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
