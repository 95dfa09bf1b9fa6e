public import InkwellSync

/// Everything a board knows about one text box's text, including operations that arrived before the box.
///
/// Kept beside the box's ``StrokeRecord`` rather than in it, so that a board of ink pays nothing for it.
struct BoxText: Sendable {
    /// Every run inserted, whatever its insert's fate: an undone run's characters still anchor others'.
    var sequence = TextSequence()
    /// Ranges hidden, per delete change: an undone delete hides nothing.
    var deletes: [ChangeID: [TextRange]] = [:]
    /// The text as it shows; derived from the above and from which changes are active.
    var shown = ""

    /// The characters that show, in order: their insert is active and no active delete hides them.
    ///
    /// - Complexity: O(n log n) for n characters inserted, plus O(ranges) of the active deletes.
    func visibleCharacters(isActive: ActivityCheck) -> [BoxCharacter] {
        var hidden: [OperationID: [Range<UInt32>]] = [:]
        for (change, ranges) in deletes where isActive(change) {
            for range in ranges { hidden[range.run, default: []].append(range.offsets) }
        }
        return sequence.characters.compactMap { character in
            let anchor = character.anchor
            guard isActive(anchor.run.change),
                !(hidden[anchor.run]?.contains { $0.contains(anchor.offset) } ?? false)
            else { return nil }
            return BoxCharacter(anchor: anchor, scalar: character.scalar)
        }
    }

    /// Recomputes ``shown``.
    ///
    /// - Returns: whether it changed.
    mutating func recompute(isActive: ActivityCheck) -> Bool {
        var view = String.UnicodeScalarView()
        for character in visibleCharacters(isActive: isActive) { view.append(character.scalar) }
        let text = String(view)
        guard text != shown else { return false }
        shown = text
        return true
    }
}

/// A character a text box shows, with the anchor that names it: what a caret after it types after, and
/// what deleting it hides.
public struct BoxCharacter: Hashable, Sendable {
    public let anchor: TextSequence.Anchor
    public let scalar: Unicode.Scalar
}
