/// Why a change was refused by a ``ChangeLog``. Refused changes leave the log untouched.
public struct ChangeLogError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case conflictingDuplicate
        case stampNotMonotonic
        case cutoffNotStable
    }

    private let code: Code
    /// The change concerned, if any: ids are safe to log, payloads are not included.
    public let change: ChangeID?

    /// A change with this id is already here with a different stamp: its replica reused a sequence number.
    public static func conflictingDuplicate(_ id: ChangeID) -> ChangeLogError {
        ChangeLogError(code: .conflictingDuplicate, change: id)
    }

    /// The change's stamp does not increase along its timeline, which no honest clock produces.
    public static func stampNotMonotonic(_ id: ChangeID) -> ChangeLogError {
        ChangeLogError(code: .stampNotMonotonic, change: id)
    }

    /// Compaction was asked to go past the stable cut-off, where changes may still be missing.
    public static let cutoffNotStable = ChangeLogError(code: .cutoffNotStable, change: nil)

    public var description: String {
        let subject = change.map { " (\($0))" } ?? ""
        switch code {
        case .conflictingDuplicate: return "change id reused with a different stamp" + subject
        case .stampNotMonotonic: return "stamp does not increase along its timeline" + subject
        case .cutoffNotStable: return "compaction cut-off is past the stable cut-off"
        }
    }
}
