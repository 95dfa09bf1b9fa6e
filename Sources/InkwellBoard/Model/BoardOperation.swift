public import InkwellGeometry
public import InkwellSync

/// One thing a change does to a board. A change carries one or more, applied as a unit.
public enum BoardOperation: Hashable, Sendable {
    /// A new stroke; its id is the change's id and this operation's index.
    case addStroke(StrokeStyle, points: [Point], pressures: [Float]?)
    /// More points for a stroke still being drawn: only its creator may append, in its seq order.
    case appendPoints(StrokeID, points: [Point], pressures: [Float]?)
    /// Hides parts of a stroke, as half-open intervals of its parameter space.
    case erase(StrokeID, [ParameterInterval])
    /// Writes a last-writer-wins attribute.
    case set(StrokeID, AttributeValue)
    /// Deactivates one of the author's own changes.
    case undo(ChangeID)
    /// Reactivates one of the author's own undone changes.
    case redo(ChangeID)
    /// Hides every stroke added before this change in the total order.
    case clear
    /// Fixes the fate of the author's own changes through `through`: each is active unless its seq is in
    /// `inactive`, whatever undo and redo say, and strokes they added take no more appends.
    case settle(through: UInt64, inactive: [UInt64])
    /// An empty text box whose top-left corner is `at` before its transform; its id is the change's id
    /// and this operation's index, as a stroke's.
    case addText(TextStyle, at: Point)
    /// A run of text in a box, after a character (`nil`: at the start); the run is named by this
    /// operation.
    case insertText(StrokeID, after: TextSequence.Anchor?, text: String)
    /// Hides characters of a box.
    case deleteText(StrokeID, [TextRange])
    /// An image filling a box whose top-left corner is `at` before its transform; its id is the change's id
    /// and this operation's index, as a stroke's.
    case addImage(BoardImage, at: Point)
    /// An operation from a newer schema: kept so it syncs on, ignored by this version.
    case unknown(kind: UInt32, bytes: [UInt8])
}

/// The payload of a board change: which board, and what happened to it.
public struct BoardEdit: Hashable, Sendable {
    public var board: BoardID
    public var operations: [BoardOperation]

    public init(board: BoardID, operations: [BoardOperation]) {
        self.board = board
        self.operations = operations
    }
}

/// A board (page) of a room.
public struct BoardID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public static func < (lhs: BoardID, rhs: BoardID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A change to a board.
public typealias BoardChange = Change<BoardEdit>
