import InkwellGeometry
import InkwellSync

extension BoardLimits {
    /// Whether a board takes in an `addStroke` with these values. What it does not take in, every
    /// replica ignores, and nothing that describes the board's changes (``InteropSession``) mentions.
    static func acceptsStroke(_ style: StrokeStyle, _ points: [Point], _ pressures: [Float]?) -> Bool {
        accepts(points, pressures) && AttributeValue.width(style.width).isValid
    }

    /// Whether a board takes in `change`'s append to `stroke`: only the stroke's creator appends, and only
    /// in a later change.
    static func acceptsAppend(
        to stroke: StrokeID,
        by change: ChangeID,
        _ points: [Point],
        _ pressures: [Float]?
    ) -> Bool {
        change.replica == stroke.creator && change.seq > stroke.change.seq && accepts(points, pressures)
    }

    /// The intervals of an erase that a board takes in (finite and not empty), or `nil` when it ignores
    /// the erase.
    static func erasedIntervals(_ intervals: [ParameterInterval]) -> [ParameterInterval]? {
        guard intervals.count <= maximumIntervalsPerErase else { return nil }
        let valid = intervals.filter { $0.isFinite && !$0.isEmpty }
        return valid.isEmpty ? nil : valid
    }

    /// Whether a board takes in an undo or redo of `target` made in `change`: only of its author's own.
    static func acceptsUndo(of target: ChangeID, in change: ChangeID) -> Bool {
        target.replica == change.replica
    }

    /// The settle a board takes in from `change`'s operation at `index`, or `nil` when it ignores it: it
    /// must settle only changes before its own, and name only those as inactive.
    static func settlement(
        through: UInt64,
        inactive: [UInt64],
        in change: ChangeID,
        index: Int
    ) -> Settlements.Entry? {
        guard through >= 1, through < change.seq, inactive.count <= maximumSettledInactive,
            inactive.allSatisfy({ $0 >= 1 && $0 <= through })
        else { return nil }
        return Settlements.Entry(
            seq: change.seq,
            index: index,
            through: through,
            inactive: Array(Set(inactive)).sorted()
        )
    }
}

extension BoardLimits {
    /// The most ranges one `deleteText` may hide.
    public static let maximumRangesPerTextDelete = maximumIntervalsPerErase

    /// Whether a board takes in an `addText` with these values: a size a width could be, a corner a point
    /// could be.
    static func acceptsText(_ style: TextStyle, at point: Point) -> Bool {
        AttributeValue.width(style.size).isValid && accepts([point], nil)
    }

    /// Whether a board takes in an insert of `text`: 1 to ``TextSequence/maximumRunLength`` scalars.
    static func acceptsInsertion(_ text: String) -> Bool {
        // Counted no further than one past the limit.
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > TextSequence.maximumRunLength { return false }
        }
        return count > 0
    }

    /// Whether a board takes in a `deleteText` of `ranges`: 1 to ``maximumRangesPerTextDelete``, none empty.
    static func acceptsDeletion(_ ranges: [TextRange]) -> Bool {
        !ranges.isEmpty && ranges.count <= maximumRangesPerTextDelete && ranges.allSatisfy { !$0.offsets.isEmpty }
    }
}
