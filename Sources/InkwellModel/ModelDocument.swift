import InkwellSync

/// A document of named fields, each a counter and a last-writer-wins register: the state of the
/// `model` document type, a function of the *set* of changes applied.
///
/// - A counter is the sum of the increments of every change applied, each change counted once however
///   often it arrives.
/// - A register holds the write latest in the total order `(stamp, replica, seq, operation index)`;
///   a removal is a write of "no value".
///
/// Fields are named by their UTF-8 bytes, and listed in the order of those bytes.
public struct ModelDocument: Equatable, Sendable {
    /// The document's name within its room (a day of a log, a note …).
    public let document: String
    /// Each counter's exact total, by field: a sum of `Int64`s fits an `Int128` until 2⁶³ of them are
    /// added, so it is the same in every order, where a saturating `Int64` sum would depend on it.
    /// Zero totals are left out.
    var totals: [[UInt8]: Int128] = [:]
    var registers = LWWMap<[UInt8], [UInt8]>()
    /// The changes applied: one applied again does nothing.
    var applied: Set<ChangeID> = []

    public init(document: String) {
        self.document = document
    }

    /// The field's counter: its total, clamped to `Int64` (0 for a field never incremented).
    ///
    /// - Complexity: O(length of the name).
    public func counter(_ field: String) -> Int64 {
        Int64(clamping: totals[Array(field.utf8)] ?? 0)
    }

    /// The field's register: the latest value written, or `nil` when none is or it was removed last.
    ///
    /// - Complexity: O(length of the name).
    public func value(_ field: String) -> [UInt8]? {
        registers[Array(field.utf8)]
    }

    /// Every field with a counter other than 0 or a value, in the order of their UTF-8 bytes.
    ///
    /// - Complexity: O(f log f) for f fields.
    public var fields: [String] {
        let names = Set(totals.keys).union(registers.entries.map(\.key))
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The number of distinct changes applied.
    public var changeCount: Int { applied.count }
}
