import InkwellGeometry
import InkwellSync

/// Everything a board knows about one stroke, including operations that arrived before the stroke.
struct StrokeRecord: Sendable {
    /// What the add operation said; `nil` until it arrives.
    struct Added: Sendable {
        let position: OpStamp
        let style: StrokeStyle
        let points: [Point]
        let pressures: [Float]?
        /// Ink, or a text box or an image: one point, its corner, taking no appends and no erases (a box's
        /// text is the board's ``BoxText``, an image's blob the board's ``BoardState/images``).
        var kind = ElementKind.ink

        var isText: Bool { kind == .text }
        /// Its layer in the stack: a highlighter's strokes beneath everything else.
        var layer: UInt8 { style.brush == .highlighter ? 0 : 1 }
        /// One point standing for a box, not ink.
        var isBox: Bool { kind != .ink }
    }

    /// What an element is; a one-byte tag, so that a record of ink carries nothing more for the others.
    enum ElementKind: UInt8, Sendable {
        case ink, text, image
    }

    /// One append, kept in the creator's seq order whatever order it arrived in.
    struct Append: Sendable {
        let change: ChangeID
        let points: [Point]
        let pressures: [Float]?
        /// Index of its first point in the stroke's point list; set when the points are laid out.
        var firstIndex = 0
    }

    let id: StrokeID
    var added: Added?
    var appends: [Append] = []
    /// Intervals per erase change.
    var erases: [ChangeID: [ParameterInterval]] = [:]
    var attributes: [Attribute: AttributeHistory] = [:]

    // Derived from the above (and from which changes are active); rebuilt when they change.
    /// The add's points, then every append's, in seq order.
    var points: [Point] = []
    var pressures: [Float]?
    /// The parts of parameter space hidden by active erases and by undone appends.
    var hidden = IntervalSet()
    /// What stays visible: positive-length parameter intervals, or `[0, 0]` for a one-point dot.
    var pieces: [ParameterInterval] = []
    /// The stroke's entry in the board's stack while it is visible: kept here, so that restacking a
    /// stroke after an edit looks up nothing more than its record. Kept as its z-order alone, as the
    /// rest of an entry is the record's own: a record is a fifth smaller, and a board of many strokes
    /// touches that much less memory as it loads.
    var stacked: StackEntry? {
        get { stackedZ.map { StackEntry(z: $0, position: added!.position, id: id, layer: added!.layer) } }
        set {
            assert(
                newValue.map { $0.position == added?.position && $0.id == id } ?? true,
                "a stack entry is its record's"
            )
            stackedZ = newValue?.z
        }
    }
    private var stackedZ: Double?

    init(id: StrokeID) {
        self.id = id
    }

    /// Takes in the stroke's add: lays its points out (with any appends that came first) and what is visible.
    ///
    /// - Complexity: O(points).
    mutating func add(_ added: Added, isActive: ActivityCheck) {
        self.added = added
        layOutPoints()
        recomputeVisibility(isActive: isActive)
    }

    /// Lays out the points again from the add and the appends.
    ///
    /// - Complexity: O(points).
    mutating func layOutPoints() {
        guard let added else { return }
        points = added.points
        pressures = added.pressures
        guard !added.isBox else { return }
        for index in appends.indices { place(appendAt: index) }
    }

    /// Adds the points of `appends[index]` after the current points.
    mutating func place(appendAt index: Int) {
        appends[index].firstIndex = points.count
        let append = appends[index]
        points.append(contentsOf: append.points)
        if pressures != nil {
            // A stroke with pressure keeps one value per point; an append without any repeats the last.
            pressures!.append(
                contentsOf: append.pressures ?? Array(repeating: pressures!.last ?? 1, count: append.points.count)
            )
        }
    }

    /// Takes in an append: lays its points out and updates what is visible.
    ///
    /// - Complexity: O(appended points) for the creator's next append, as while drawing; O(points) otherwise.
    mutating func append(_ append: Append, isActive: ActivityCheck) {
        let wentLast = insert(append)
        guard let added, !added.isBox else { return }
        if wentLast {
            place(appendAt: appends.count - 1)
        } else {
            layOutPoints()
        }
        if wentLast && isActive(append.change) {
            recomputePieces()
        } else {
            recomputeVisibility(isActive: isActive)
        }
    }

    /// Inserts an append in seq order.
    ///
    /// - Returns: whether it went last, so its points can simply be placed after the others.
    mutating func insert(_ append: Append) -> Bool {
        if appends.last.map({ $0.change.seq < append.change.seq }) ?? true {
            appends.append(append)
            return true
        }
        let position = appends.firstIndex { $0.change.seq > append.change.seq } ?? appends.endIndex
        appends.insert(append, at: position)
        return position == appends.endIndex - 1
    }

    /// The parameter of the last point: the stroke spans `0...lastParameter`.
    var lastParameter: Double { Double(max(points.count - 1, 0)) }

    /// Recomputes ``hidden`` and ``pieces`` from the erases and appends that are active.
    ///
    /// - Complexity: O(e·i) for e erase intervals held in i merged intervals, plus O(appends).
    mutating func recomputeVisibility(isActive: ActivityCheck) {
        if added?.isBox == true {
            hidden = IntervalSet()
            pieces = [ParameterInterval(0, 0)]
            return
        }
        var hidden = IntervalSet()
        // Most strokes were never erased: no keys to sort.
        if !erases.isEmpty {
            for change in erases.keys.sorted() where isActive(change) {
                for interval in erases[change]! { hidden.insert(interval) }
            }
        }
        for append in appends where !isActive(append.change) {
            hidden.insert(
                ParameterInterval(Double(append.firstIndex - 1), Double(append.firstIndex + append.points.count))
            )
        }
        self.hidden = hidden
        recomputePieces()
    }

    /// Recomputes ``pieces`` from ``hidden`` after the points grew.
    mutating func recomputePieces() {
        if hidden.isEmpty, points.count > 1 {
            // Nothing hidden, as while drawing: one piece, the whole stroke, updated in place.
            if pieces.count == 1 {
                pieces[0] = ParameterInterval(0, lastParameter)
            } else {
                pieces = [ParameterInterval(0, lastParameter)]
            }
        } else if points.count == 1 {
            pieces = hidden.contains(0) ? [] : [ParameterInterval(0, 0)]
        } else {
            pieces = hidden.gaps(in: 0, lastParameter)
        }
    }
}
