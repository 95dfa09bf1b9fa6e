import InkwellGeometry
public import InkwellSync

/// Speaks the JSON stroke protocol for one connected app, which counts as one replica.
///
/// Incoming messages become board changes with ids and stamps given on receipt; `APPEND` and
/// `DELETE` for a stroke whose `ADD` has not come yet wait for it. Outgoing, board changes made
/// elsewhere become messages; what the protocol cannot say (colours changing, undoing an erase,
/// moving a stroke) is left out, and the app sees the drawing as it was last described to it.
public struct InteropSession: Sendable {
    public let replica: ReplicaID
    public let board: BoardID
    private var clock: HybridLogicalClock
    private var nextSeq: UInt64
    /// Identifiers of strokes this app added, to the stroke ids they became.
    private var strokes: [String: StrokeID] = [:]
    /// The same, reversed: the app's own name for each of its strokes.
    private var identifiers: [StrokeID: String] = [:]
    /// Messages about strokes whose `ADD` has not arrived, in arrival order.
    private var waiting: [String: [InteropMessage]] = [:]

    /// A session for a new connection; resume `nextSeq` and `clock` from the store for a known one.
    public init(replica: ReplicaID, board: BoardID, nextSeq: UInt64 = 1, clock: HybridLogicalClock = .init()) {
        self.replica = replica
        self.board = board
        self.nextSeq = nextSeq
        self.clock = clock
    }

    /// How many messages are waiting for an `ADD`.
    public var waitingCount: Int { waiting.values.map(\.count).reduce(0, +) }

    /// Turns one message from the app into the changes it makes: none while it waits for its stroke,
    /// several when an `ADD` releases messages that were waiting for it.
    public mutating func receive(_ message: InteropMessage, wallMilliseconds now: UInt64) -> [BoardChange] {
        switch message {
        case .add(let identifier, let weight, let colour, let start):
            guard strokes[identifier] == nil else { return [] }
            let change = makeChange(
                [.addStroke(StrokeStyle(colour: colour, width: weight), points: [start], pressures: nil)],
                at: now
            )
            strokes[identifier] = StrokeID(change: change.id)
            identifiers[StrokeID(change: change.id)] = identifier
            let released = waiting.removeValue(forKey: identifier) ?? []
            return [change] + released.flatMap { receive($0, wallMilliseconds: now) }
        case .append(let identifier, let points):
            guard let id = strokes[identifier] else {
                if StrokeID(identifier) != nil { return [] }  // only a stroke's creator may append
                waiting[identifier, default: []].append(message)
                return []
            }
            return [makeChange([.appendPoints(id, points: points, pressures: nil)], at: now)]
        case .delete(let identifier, let start, let end):
            guard let id = strokes[identifier] ?? StrokeID(identifier) else {
                waiting[identifier, default: []].append(message)
                return []
            }
            guard start < end else { return [] }
            return [makeChange([.erase(id, [ParameterInterval(start, end)])], at: now)]
        }
    }

    /// Notes a change made elsewhere, so this replica's next stamps come after it.
    public mutating func witness(_ change: BoardChange, wallMilliseconds now: UInt64) {
        clock.witness(change.stamp, wallMilliseconds: now)
    }

    private mutating func makeChange(_ operations: [BoardOperation], at now: UInt64) -> BoardChange {
        defer { nextSeq += 1 }
        return Change(
            id: ChangeID(replica: replica, seq: nextSeq),
            stamp: clock.next(wallMilliseconds: now),
            payload: BoardEdit(board: board, operations: operations)
        )
    }

    /// The messages that describe `change`, made by another replica, to the app. `board` is the
    /// board after the change was applied: it gives point counts and what a clear or delete hid.
    ///
    /// Operations the board ignores (no points, numbers out of range, an append or undo by another
    /// replica) are left out: the app sees what the board shows, and JSON has no NaN or infinity.
    public func messages(for change: BoardChange, in board: BoardState) -> [InteropMessage] {
        guard change.id.replica != replica, change.payload.board == self.board else { return [] }
        var messages: [InteropMessage] = []
        for (index, operation) in change.payload.operations.enumerated() {
            switch operation {
            case .addStroke(let style, let points, let pressures):
                guard BoardLimits.acceptsStroke(style, points, pressures) else { continue }
                let identifier = StrokeID(change: change.id, index: UInt32(index)).description
                let colour = style.colour
                messages.append(.add(identifier: identifier, weight: style.width, colour: colour, start: points[0]))
                if points.count > 1 {
                    messages.append(.append(identifier: identifier, points: Array(points.dropFirst())))
                }
            case .appendPoints(let id, let points, let pressures):
                guard BoardLimits.acceptsAppend(to: id, by: change.id, points, pressures) else { continue }
                messages.append(.append(identifier: id.description, points: points))
            case .erase(let id, let intervals):
                let identifier = identifierForApp(id)
                for interval in BoardLimits.erasedIntervals(intervals) ?? [] {
                    messages.append(
                        .delete(identifier: identifier, startOffset: interval.lower, endOffset: interval.upper)
                    )
                }
            case .set(let id, .deleted(true)):
                messages.append(contentsOf: hideWhole(id, in: board))
            case .undo(let target):
                // Undoing an add hides the stroke; other undos cannot be said in this protocol.
                guard BoardLimits.acceptsUndo(of: target, in: change.id) else { continue }
                messages.append(contentsOf: board.strokesAdded(by: target).flatMap { hideWhole($0, in: board) })
            case .clear:
                let position = change.opStamp(index)
                messages.append(contentsOf: board.strokesAdded(before: position).flatMap { hideWhole($0, in: board) })
            case .set, .redo, .settle, .unknown:
                continue
            case .addText, .insertText, .deleteText, .addImage:
                // The protocol speaks of ink alone: an app never hears of text boxes or images.
                continue
            }
        }
        return messages
    }

    /// The app's own identifier for a stroke it added, or the stroke id's text.
    private func identifierForApp(_ id: StrokeID) -> String {
        identifiers[id] ?? id.description
    }

    private func hideWhole(_ id: StrokeID, in board: BoardState) -> [InteropMessage] {
        guard let points = board.points(of: id), board.isInk(id) else { return [] }
        return [.delete(identifier: identifierForApp(id), startOffset: 0, endOffset: Double(points.count - 1))]
    }
}

extension BoardState {
    /// Strokes added by `change` that have arrived, in index order.
    func strokesAdded(by change: ChangeID) -> [StrokeID] {
        effects(of: change).compactMap { effect in
            if case .stroke(let id) = effect { id } else { nil }
        }
    }

    /// Strokes added before `position` in the total order, in id order.
    func strokesAdded(before position: OpStamp) -> [StrokeID] {
        records.values.filter { ($0.added?.position).map { $0 < position } ?? false }.map(\.id).sorted()
    }
}
