import CInkwellCrashVFS
import Foundation

/// Power cuts and failing disks for the simulation's processes, through the crash VFS
/// (CInkwellCrashVFS.h): each node's files live in a folder of their own, armed, so that a crash loses
/// what no fsync covered there and tears some of it, as a power cut does, a full disk refuses what would
/// grow a file, and a failing one every read, write and sync; every other node's files are left alone.
enum PowerSupply {
    /// Registers the VFS (once per process) and arms `folder`, made if missing.
    static func connect(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard inkwell_crash_vfs_register() == 0, inkwell_crash_vfs_arm(path(folder)) == 0 else {
            throw SimulationError("the crash VFS could not be registered")
        }
    }

    static func disconnect(_ folder: URL) {
        inkwell_crash_vfs_disarm(path(folder))
    }

    /// Cuts the power: unsynced writes are forgotten and every later write fails, until ``restore(_:seed:)``.
    static func cut(_ folder: URL) {
        inkwell_crash_vfs_cut_power(path(folder))
    }

    /// Plans a cut in the middle of what is written next: the `operations`-th write or sync fails.
    static func cut(_ folder: URL, afterOperations operations: UInt64) {
        inkwell_crash_vfs_cut_power_after(path(folder), operations)
    }

    /// Whether the power is cut, by ``cut(_:)`` or by a planned cut that came.
    static func isCut(_ folder: URL) -> Bool {
        inkwell_crash_vfs_power_is_cut(path(folder)) != 0
    }

    /// Forgets a planned cut that has not come.
    static func cancelPlannedCut(_ folder: URL) {
        guard !isCut(folder) else { return }
        inkwell_crash_vfs_restore_power(path(folder))
    }

    /// Once the files' handles are closed: the disk as the cut left it, chosen by `seed`, then power again.
    /// Returns how many unsynced writes the cut found.
    @discardableResult
    static func restore(_ folder: URL, seed: UInt64) throws -> UInt64 {
        var outcome = inkwell_crash_outcome()
        guard inkwell_crash_vfs_settle(path(folder), seed, &outcome) == 0 else {
            throw SimulationError("could not settle the power cut in \(folder.path): errno \(errno)")
        }
        inkwell_crash_vfs_restore_power(path(folder))
        return outcome.writes
    }

    /// The health of a node's disk.
    enum Disk: String, Sendable {
        case healthy
        /// Out of space: writes that grow a file fail (`SQLITE_FULL`).
        case full
        /// Failing: reads, writes and syncs fail (`SQLITE_IOERR_*`).
        case failing
    }

    /// Makes `folder`'s disk healthy, full or failing from the next operation on.
    static func set(_ folder: URL, disk: Disk) {
        let state =
            switch disk {
            case .healthy: INKWELL_DISK_HEALTHY
            case .full: INKWELL_DISK_FULL
            case .failing: INKWELL_DISK_FAILING
            }
        inkwell_crash_vfs_set_disk(path(folder), Int32(state.rawValue))
    }

    /// SQLite names files by their real path.
    private static func path(_ folder: URL) -> String {
        folder.standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// A simulation that could not run (not one whose checks failed: that is a ``SimulationVerdict``).
struct SimulationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
