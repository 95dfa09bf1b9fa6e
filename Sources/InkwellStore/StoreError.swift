public import InkwellSync

/// Why the store refused to open or to do what it was asked. A refused request changes nothing stored.
///
/// Descriptions are plain words, safe to log: they name ids and sizes, never payloads, room names or paths.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case newerSchema(found: Int, supported: Int)
        case notDurable(journalMode: String, synchronous: Int)
        case conflictingDuplicate
        case stampNotMonotonic
        case payloadTooLarge(size: Int, limit: Int)
        case emptyName
        case outOfRange
        case unknownChange
        case snapshotNotNewer
        case invalidBlob(String)
        case corruptRow(String)
        case sqlite(code: Int32, message: String)
    }

    private let code: Code
    /// The change concerned, if any.
    public let change: ChangeID?

    private init(_ code: Code, change: ChangeID? = nil) {
        self.code = code
        self.change = change
    }

    /// The file holds migrations this code does not know: a newer Inkwell wrote it. The file is left untouched.
    public static func newerSchema(found: Int, supported: Int) -> StoreError {
        StoreError(.newerSchema(found: found, supported: supported))
    }

    /// SQLite did not confirm WAL journaling with `synchronous=FULL`, so commits could be lost on power failure.
    static func notDurable(journalMode: String, synchronous: Int) -> StoreError {
        StoreError(.notDurable(journalMode: journalMode, synchronous: synchronous))
    }

    /// A change with this id is already stored with different content: its replica reused a sequence number.
    public static func conflictingDuplicate(_ id: ChangeID) -> StoreError {
        StoreError(.conflictingDuplicate, change: id)
    }

    /// The change's stamp does not increase along its timeline, which no honest clock produces.
    public static func stampNotMonotonic(_ id: ChangeID) -> StoreError {
        StoreError(.stampNotMonotonic, change: id)
    }

    /// The payload is larger than ``Store/Configuration/maximumPayloadBytes``.
    public static func payloadTooLarge(_ id: ChangeID?, size: Int, limit: Int) -> StoreError {
        StoreError(.payloadTooLarge(size: size, limit: limit), change: id)
    }

    /// A room or board name is empty.
    public static func emptyName(_ id: ChangeID? = nil) -> StoreError {
        StoreError(.emptyName, change: id)
    }

    /// A sequence number or server position does not fit SQLite's signed 64-bit integers.
    public static func outOfRange(_ id: ChangeID? = nil) -> StoreError {
        StoreError(.outOfRange, change: id)
    }

    /// The change is not stored, so it cannot be queued for upload.
    public static func unknownChange(_ id: ChangeID) -> StoreError {
        StoreError(.unknownChange, change: id)
    }

    /// The snapshot's vector does not cover the stored one's: writing it would forget changes.
    public static let snapshotNotNewer = StoreError(.snapshotNotNewer)

    /// Blob metadata that contradicts itself (the reason says how).
    public static func invalidBlob(_ reason: String) -> StoreError {
        StoreError(.invalidBlob(reason))
    }

    /// A stored row could not be read back: the file was damaged or written by something else.
    static func corruptRow(_ table: String, _ id: ChangeID? = nil) -> StoreError {
        StoreError(.corruptRow(table), change: id)
    }

    /// SQLite itself failed (disk full, I/O error, locked file, …).
    static func sqlite(code: Int32, message: String) -> StoreError {
        StoreError(.sqlite(code: code, message: message))
    }

    public var description: String {
        let subject = change.map { " (\($0))" } ?? ""
        switch code {
        case .newerSchema(let found, let supported):
            return "this store was written by a newer version of Inkwell (schema \(found)); "
                + "this version understands up to \(supported)"
        case .notDurable(let journalMode, let synchronous):
            return "SQLite did not confirm durable settings (journal_mode=\(journalMode), synchronous=\(synchronous); "
                + "expected wal and 2 = FULL)"
        case .conflictingDuplicate: return "change id reused with different content" + subject
        case .stampNotMonotonic: return "stamp does not increase along its timeline" + subject
        case .payloadTooLarge(let size, let limit): return "payload of \(size) bytes exceeds \(limit) bytes" + subject
        case .emptyName: return "room and document names must not be empty" + subject
        case .outOfRange: return "number too large for the store (at most 2^63 - 1)" + subject
        case .unknownChange: return "change is not stored" + subject
        case .snapshotNotNewer: return "snapshot does not cover the stored snapshot of its document"
        case .invalidBlob(let reason): return "invalid blob metadata: " + reason
        case .corruptRow(let table): return "unreadable row in table \(table)" + subject
        case .sqlite(let code, let message): return "SQLite error \(code): \(message)"
        }
    }
}
