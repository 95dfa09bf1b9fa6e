public import InkwellGeometry
public import InkwellSync

/// A board's history: the board as it was after any of its changes, and the one change that brings the
/// board back to such a past state (the page's `Web/js/model/board-history.js`; `Conformance/history.json`
/// holds both to the same operations).
///
/// The past is rebuilt from the changes a replica holds, in the total order every replica agrees on (stamp,
/// then change id): the board after the first k of them. Nothing is rewritten to go back: a restore is a new
/// change of the restorer's, made of ordinary operations, so it syncs, merges and is undone like any edit.
/// History reaches back as far as the changes held: a store that dropped changes that stopped mattering (a
/// snapshot's compaction) shows the past from there.
public enum BoardHistory {
    /// The board's changes in the total order, each once.
    public static func timeline(_ changes: some Sequence<BoardChange>, board: BoardID) -> [BoardChange] {
        var seen: [ChangeID: BoardChange] = [:]
        for change in changes where change.payload.board == board && seen[change.id] == nil {
            seen[change.id] = change
        }
        return seen.values.sorted { ($0.stamp, $0.id) < ($1.stamp, $1.id) }
    }

    /// The board as it was after the first `count` changes of `history` (from ``timeline(_:board:)``).
    public static func board(after count: Int, of history: [BoardChange], board: BoardID) -> BoardState {
        var past = BoardState(board: board)
        _ = past.apply(contentsOf: history.prefix(max(0, count)))
        return past
    }

    /// The operations of one change, `change`, that make `current` show what `past` showed: strokes shown
    /// now and not then are deleted; a stroke shown both times gets back its colour, width and transform,
    /// and loses what it shows now that it did not then (an erase, or for a box a delete of the characters
    /// typed since); a stroke shown then that is gone now, or shows less than it did, or has more points
    /// (appended since), or a box that lost characters, comes back as a copy of how it was (no one may undo
    /// another's change, so the restorer draws it again). When copies come back, or the
    /// strokes kept stack otherwise than they did, every restored stroke gets a z-order in the past's
    /// stacking order. The copies' additions come first, so the i-th is the change's operation i.
    public static func restore(_ current: BoardState, to past: BoardState, change: ChangeID) -> [BoardOperation] {
        let then = Array(past.drawing)
        var copies: [DrawingStroke] = []
        var edits: [BoardOperation] = []
        var deletes: [StrokeID] = current.drawing.filter { past.drawingStroke($0.id) == nil }.map(\.id)
        var kept: Set<StrokeID> = []
        for was in then {
            guard let now = current.drawingStroke(was.id) else {
                copies.append(was)
                continue
            }
            // Text typed since is deleted again; text gone since comes back only with a copy.
            let typed = was.text == now.text ? [] : typedSince(was.id, in: current, past: past)
            if was.points.count != now.points.count || !subtract(was.pieces, now.pieces).isEmpty || typed == nil {
                deletes.append(now.id)
                copies.append(was)
                continue
            }
            kept.insert(was.id)
            let extra = was.points.count == 1 ? [] : subtract(now.pieces, was.pieces)
            if !extra.isEmpty { edits.append(.erase(now.id, extra)) }
            if let typed, !typed.isEmpty { edits.append(.deleteText(now.id, typed)) }
            if now.colour != was.colour { edits.append(.set(now.id, .colour(was.colour))) }
            if now.width != was.width { edits.append(.set(now.id, .width(was.width))) }
            if now.transform != was.transform { edits.append(.set(now.id, .transform(was.transform))) }
            if now.fill != was.fill { edits.append(.set(now.id, .fill(was.fill ?? Colour(rgba: 0)))) }
        }
        var operations = SelectionEdits.copies(of: copies, dx: 0, dy: 0, change: change)
        operations += edits
        operations += Set(deletes).sorted().map { .set($0, .deleted(true)) }
        let keptNow = current.drawing.filter { kept.contains($0.id) }.map(\.id)
        let keptThen = then.filter { kept.contains($0.id) }.map(\.id)
        if !copies.isEmpty || keptNow != keptThen {
            var copy: UInt32 = 0
            for (z, was) in then.enumerated() {
                let id: StrokeID
                if kept.contains(was.id) {
                    id = was.id
                } else {
                    id = StrokeID(change: change, index: copy)
                    copy += 1
                }
                operations.append(.set(id, .zOrder(Double(z))))
            }
        }
        return operations
    }

    /// The characters a box shows now and did not in `past`, one range each, or `nil` when it showed some
    /// that it does not now.
    static func typedSince(_ box: StrokeID, in current: BoardState, past: BoardState) -> [TextRange]? {
        let then = Set(past.characters(of: box).map(\.anchor))
        let now = current.characters(of: box).map(\.anchor)
        guard then.isSubset(of: now) else { return nil }
        return now.filter { !then.contains($0) }.map { TextRange(run: $0.run, offsets: $0.offset..<$0.offset + 1) }
    }

    /// The parts of `a` outside `b` (both sorted, disjoint), by comparisons only, as the page computes them.
    static func subtract(_ a: [ParameterInterval], _ b: [ParameterInterval]) -> [ParameterInterval] {
        var result: [ParameterInterval] = []
        var j = 0
        for interval in a {
            var cursor = interval.lower
            while j < b.count, b[j].upper <= cursor { j += 1 }
            var k = j
            while k < b.count, b[k].lower < interval.upper {
                if b[k].lower > cursor { result.append(ParameterInterval(cursor, b[k].lower)) }
                if b[k].upper > cursor { cursor = b[k].upper }
                k += 1
            }
            if cursor < interval.upper { result.append(ParameterInterval(cursor, interval.upper)) }
        }
        return result
    }
}
