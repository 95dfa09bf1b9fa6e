import GRDB

/// Why the pack log cannot be trusted to keep what it is given: a full disk, an I/O error (a failed
/// `fsync` among them), a damaged file, a file it cannot open. Its ``reason`` is plain words with no user
/// content, safe for `/healthz` and logs; ``kind`` labels the metric.
///
/// A commit that fails for any reason but cancellation is a fault: after a failed `fsync` nobody knows
/// what reached the disk, so the log takes no further commit (see ``PackLog/fault``). A read that fails
/// is a fault when it is about the file (I/O, damage, opening); one that is merely interrupted is not.
public struct StorageFault: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a metric label.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case diskFull = "disk_full"
        case io
        case corrupt
        case unavailable
        case other
    }

    public let kind: Kind
    /// What went wrong, in plain words.
    public let reason: String
    /// SQLite's extended result code, when the fault came from SQLite.
    private let code: Int32?

    private init(_ kind: Kind, _ reason: String, code: Int32? = nil) {
        self.kind = kind
        self.reason = reason
        self.code = code
    }

    public var description: String {
        code.map { "\(reason) (SQLite code \($0))" } ?? reason
    }

    /// The disk that holds the log is full.
    public static let diskFull = StorageFault(.diskFull, "the disk holding the pack log is full")
    /// `fsync` of the log failed: what the last commit wrote may not be on the disk.
    public static let syncFailed = StorageFault(.io, "the pack log could not be flushed to disk (fsync failed)")
    /// Reading or writing the log's files failed.
    public static let ioError = StorageFault(.io, "an I/O error on the pack log's files")
    /// The log's file is damaged, cut short, or its pages cannot be read.
    public static let corrupt = StorageFault(.corrupt, "the pack log's file is damaged or its pages cannot be read")
    /// The log's file cannot be opened or written (permissions, a read-only file system).
    public static let unavailable = StorageFault(.unavailable, "the pack log's file cannot be opened or written")
    /// A commit failed for another reason.
    public static let commitFailed = StorageFault(.other, "a commit to the pack log failed")

    /// The fault `error` means, or nil if it says nothing about the storage: a cancelled or interrupted
    /// access, or (for a read) an error that is not about the file.
    ///
    /// - Parameter committing: whether `error` ended a commit, where every other error is a fault.
    init?(_ error: any Error, committing: Bool) {
        if error is CancellationError { return nil }
        guard let error = error as? DatabaseError else {
            guard committing else { return nil }
            self = .commitFailed
            return
        }
        let found: StorageFault?
        switch error.resultCode {
        case .SQLITE_INTERRUPT: found = nil
        case .SQLITE_FULL: found = .diskFull
        case .SQLITE_IOERR:
            let sync = [ResultCode.SQLITE_IOERR_FSYNC, .SQLITE_IOERR_DIR_FSYNC].contains(error.extendedResultCode)
            found = sync ? .syncFailed : .ioError
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: found = .corrupt
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM: found = .unavailable
        default: found = committing ? .commitFailed : nil
        }
        guard let found else { return nil }
        self.init(found.kind, found.reason, code: error.extendedResultCode.rawValue)
    }

    /// Faults are equal when they are the same fault, whatever SQLite code carried them.
    public static func == (lhs: StorageFault, rhs: StorageFault) -> Bool {
        lhs.kind == rhs.kind && lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(reason)
    }
}
