/// A text that several people edit at once, each keeping every character they typed: a replicated growable
/// array (RGA) of runs. The page's `Web/js/model/text-sequence.js` is the same algorithm;
/// `Conformance/text.json` holds both to the same text.
///
/// Each insert is a run of characters (Unicode scalars, so that both implementations count alike) made by
/// one operation, placed after a character (an ``Anchor``) or at the start. An anchor names its run by the
/// operation's ``OperationID`` alone; the run's full ``OpStamp`` orders it among its siblings.
/// Characters follow their anchor; runs after the same anchor go newest first, so text typed at a cursor
/// goes where the cursor is, and a run typed forwards stays whole however others type next to it (runs
/// interleave by run, never by character). An anchor is always older than what is typed after it (the
/// hybrid clock makes it so), so a character's own run goes on after every run anchored on it. A delete
/// hides characters for good (a tombstone): undo writes the text again. The state is a set of inserts and a
/// set of deletes, so applying them in any order, any number of times, gives the same text.
public struct TextSequence: Hashable, Sendable, Mergeable {
    /// A character: the run that inserted it, and its offset in the run.
    public struct Anchor: Hashable, Comparable, Sendable {
        public let run: OperationID
        public let offset: UInt32

        public init(run: OperationID, offset: UInt32) {
            self.run = run
            self.offset = offset
        }

        public static func < (lhs: Anchor, rhs: Anchor) -> Bool { (lhs.run, lhs.offset) < (rhs.run, rhs.offset) }
    }

    struct Run: Hashable, Sendable {
        /// Orders the run among the runs after the same anchor.
        let stamp: OpStamp
        let after: Anchor?
        let scalars: [Unicode.Scalar]
    }

    /// The most characters one insert may carry: a longer one is ignored by every replica alike. (A limit on
    /// the whole text would depend on which inserts came first, and replicas would disagree.)
    public static let maximumRunLength = 100_000

    private(set) var runs: [OperationID: Run] = [:]
    /// Deleted characters, by run: sorted, disjoint half-open offset ranges.
    private(set) var deleted: [OperationID: [Range<UInt32>]] = [:]

    public init() {}

    /// Inserts `text` as the run made by the operation `id`, after `anchor` (`nil`: at the start). Ignored
    /// when the run is known already, empty, too long or placed after itself.
    ///
    /// - Returns: whether it was new.
    @discardableResult
    public mutating func insert(_ text: String, id: OpStamp, after anchor: Anchor?) -> Bool {
        let scalars = Array(text.unicodeScalars)
        let key = id.operation
        guard runs[key] == nil, !scalars.isEmpty, scalars.count <= Self.maximumRunLength, anchor?.run != key else {
            return false
        }
        runs[key] = Run(stamp: id, after: anchor, scalars: scalars)
        return true
    }

    /// Deletes the characters `offsets` of run `run`, whether the run has arrived or not.
    ///
    /// - Returns: whether it hid anything not hidden before.
    @discardableResult
    public mutating func delete(run: OperationID, offsets: Range<UInt32>) -> Bool {
        guard !offsets.isEmpty else { return false }
        var ranges = deleted[run] ?? []
        if ranges.contains(where: { $0.lowerBound <= offsets.lowerBound && offsets.upperBound <= $0.upperBound }) {
            return false
        }
        ranges.append(offsets)
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt32>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        deleted[run] = merged
        return true
    }

    public mutating func merge(_ other: TextSequence) {
        for run in other.runs.values.sorted(by: { $0.stamp < $1.stamp }) {
            insert(String(String.UnicodeScalarView(run.scalars)), id: run.stamp, after: run.after)
        }
        for (run, ranges) in other.deleted {
            for range in ranges { delete(run: run, offsets: range) }
        }
    }

    /// Every character in order, with whether it shows.
    ///
    /// - Complexity: O(n log n) for n characters inserted; iterative, so a hostile chain of runs each after
    ///   the last cannot exhaust the stack.
    public var characters: [(anchor: Anchor, scalar: Unicode.Scalar, visible: Bool)] {
        // Runs after each anchor, newest first.
        var children: [Anchor?: [OperationID]] = [:]
        for (id, run) in runs {
            // An anchor past its run's end is malformed: the run never shows.
            if let after = run.after {
                guard let anchorRun = runs[after.run], Int(after.offset) < anchorRun.scalars.count else { continue }
            }
            children[run.after, default: []].append(id)
        }
        for key in children.keys { children[key]!.sort { runs[$0]!.stamp > runs[$1]!.stamp } }
        var result: [(anchor: Anchor, scalar: Unicode.Scalar, visible: Bool)] = []
        // A stack of (run, next offset) still to walk; the start's runs first.
        var stack: [(run: OperationID, offset: Int)] = (children[nil] ?? []).reversed().map { ($0, 0) }
        while let (id, offset) = stack.popLast() {
            let run = runs[id]!
            guard offset < run.scalars.count else { continue }
            let anchor = Anchor(run: id, offset: UInt32(offset))
            result.append((anchor, run.scalars[offset], !isDeleted(anchor)))
            // The rest of this run, after every run anchored on this character.
            stack.append((id, offset + 1))
            for child in (children[anchor] ?? []).reversed() { stack.append((child, 0)) }
        }
        return result
    }

    /// The text as it shows.
    public var text: String {
        var view = String.UnicodeScalarView()
        for character in characters where character.visible { view.append(character.scalar) }
        return String(view)
    }

    /// The anchor of the `index`-th visible character: where text typed after it goes.
    public func anchor(ofVisible index: Int) -> Anchor? {
        var seen = 0
        for character in characters where character.visible {
            if seen == index { return character.anchor }
            seen += 1
        }
        return nil
    }

    private func isDeleted(_ anchor: Anchor) -> Bool {
        deleted[anchor.run]?.contains { $0.contains(anchor.offset) } ?? false
    }
}
