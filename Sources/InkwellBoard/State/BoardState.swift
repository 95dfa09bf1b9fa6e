import InkwellGeometry
public import InkwellSync

/// The state of one board: a pure function of the *set* of changes applied to it.
///
/// Any order, any repetition, any batching of the same changes gives the same state and the same
/// ``canonicalEncoding()``. Operations that arrive before their stroke are kept and take effect when
/// it arrives. Undo is a last-writer-wins "active" register per target change; a change that is not
/// active has no effect, and the effects index lets an undo revisit exactly what its target touched.
///
/// Applying a change costs O(the change) (plus O(log strokes) to restack), except a clear, or its
/// undo, which revisits every stroke.
public struct BoardState: Sendable {
    public let board: BoardID

    var records: [StrokeID: StrokeRecord] = [:]
    /// The text of every text box, and of boxes only mentioned so far by their text's operations.
    var texts: [StrokeID: BoxText] = [:]
    /// What each image's add named: kept beside its record, so that a board of ink pays nothing for it.
    var images: [StrokeID: BoardImage] = [:]
    /// Every change applied, so applying one again changes nothing, with what it touched, so undoing
    /// or redoing it revisits exactly that. One record for both: a change costs one lookup and one insert.
    var applied = AppliedChanges()
    /// The change being applied and what its operations touched so far; stored in ``applied`` when the
    /// change is done (an undo inside the change that targets it sees these).
    var applying: (change: ChangeID, effects: Effects)?
    /// Undo/redo registers per target change; a change with none is active. A settled change's
    /// register no longer counts: its settle says.
    var activity: [ChangeID: LWWRegister<Bool>] = [:]
    /// Each replica's settles on this board.
    var settlements: [ReplicaID: Settlements] = [:]
    /// Every change that is not active now, by its register or its settle: kept as one set so that the
    /// hot question "is this change active?" is one lookup, or none while nothing was ever undone.
    var inactive: Set<ChangeID> = []
    /// Strokes that have appends, so that a settle finds the appends it voids without visiting every stroke.
    var strokesWithAppends: Set<StrokeID> = []
    /// Every clear, sorted; the latest active one hides strokes added before it.
    var clears: [OpStamp] = []
    var latestActiveClear: OpStamp?
    /// Visible strokes, bottom to top; each visible stroke's record holds its entry (``StrokeRecord/stacked``).
    var stack: [StackEntry] = []
    /// While a large batch is applied, the stack is left alone and rebuilt from the records once at its end:
    /// moving entries one by one in a sorted array costs O(strokes) each, which a cold open of a board whose
    /// history deletes a third of its strokes paid hundreds of thousands of times.
    var stackRebuiltAfterBatch = false
    /// While a batch is applied, the text boxes whose text it touched, worked out once at its end.
    var textsToRefresh: Set<StrokeID>?

    public init(board: BoardID) {
        self.board = board
    }

    /// Whether a change has been applied.
    public func contains(_ change: ChangeID) -> Bool { applied[change] != nil }

    /// The number of changes applied.
    public var changeCount: Int { applied.count }

    /// Whether `change` is active: not undone, or redone since.
    public func isActive(_ change: ChangeID) -> Bool {
        inactive.isEmpty ? true : !inactive.contains(change)
    }

    /// ``isActive(_:)`` holding only the activity registers, for passing into mutations of `records`:
    /// capturing `self` would share `records`' storage and force a copy of the whole board on every
    /// such mutation. A struct, not a closure, so that making one allocates nothing.
    var activeCheck: ActivityCheck { ActivityCheck(inactive: inactive) }
}

/// Whether a change is active (not undone, or redone since, or as its settle says), from the board's
/// set of inactive changes.
struct ActivityCheck {
    let inactive: Set<ChangeID>

    func callAsFunction(_ change: ChangeID) -> Bool {
        inactive.isEmpty ? true : !inactive.contains(change)
    }
}

/// Something an undoable change did, to be revisited when the change is undone or redone.
enum Effect: Hashable, Sendable {
    case stroke(StrokeID)
    case append(StrokeID)
    case erase(StrokeID)
    case attribute(StrokeID, Attribute)
    /// Inserted or hid a box's text.
    case text(StrokeID)
    case clear
}

/// The effects of one change: almost always one, kept without allocating an array.
enum Effects: Hashable, Sendable {
    /// A change that touched nothing (an undo, an operation refused as malformed).
    case none
    case one(Effect)
    case many([Effect])

    var all: [Effect] {
        switch self {
        case .none: []
        case .one(let effect): [effect]
        case .many(let effects): effects
        }
    }

    mutating func append(_ effect: Effect) {
        self = if case .none = self { .one(effect) } else { .many(all + [effect]) }
    }
}

/// A visible stroke's place in the stack: highlighters beneath everything else, then by z-order, then by
/// when it was added.
struct StackEntry: Comparable, Sendable {
    /// 0 for a highlighter's stroke, 1 for every other element.
    let layer: UInt8
    let z: Double
    let position: OpStamp
    let id: StrokeID

    init(z: Double, position: OpStamp, id: StrokeID, layer: UInt8 = 1) {
        self.layer = layer
        self.z = z
        self.position = position
        self.id = id
    }

    static func < (lhs: StackEntry, rhs: StackEntry) -> Bool {
        (lhs.layer, lhs.z, lhs.position) < (rhs.layer, rhs.z, rhs.position)
    }

    static func == (lhs: StackEntry, rhs: StackEntry) -> Bool {
        lhs.layer == rhs.layer && lhs.z == rhs.z && lhs.position == rhs.position
    }
}

/// Sizes beyond which an operation is malformed and ignored by every replica alike.
public enum BoardLimits {
    public static let maximumPointsPerOperation = 100_000
    public static let maximumCoordinate = 1e9
    public static let maximumIntervalsPerErase = 10_000
    public static let maximumSettledInactive = 100_000

    static func accepts(_ points: [Point], _ pressures: [Float]?) -> Bool {
        guard !points.isEmpty, points.count <= maximumPointsPerOperation else { return false }
        // A NaN or an infinity fails `<=` too. Counted without branching, so that the loop over every
        // point of every stroke applied runs as vector code.
        var outside = 0
        for point in points {
            outside |= (abs(point.x) <= maximumCoordinate ? 0 : 1) | (abs(point.y) <= maximumCoordinate ? 0 : 1)
        }
        guard outside == 0 else { return false }
        guard let pressures else { return true }
        return pressures.count == points.count && pressures.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
    }
}
