import ArgumentParser
import CInkwellCrashVFS
import Foundation

/// `--crash-vfs`: SQLite files under a directory go through the crash VFS, which keeps every write no
/// fsync covered in memory and in a side log, so a killed process leaves its files as a power cut would
/// (see CInkwellCrashVFS.h). For the power-loss tests; a store run this way is slower, never less safe.
enum CrashVFS {
    /// Registers the VFS as SQLite's default and tracks the files under `directory`, made if missing.
    static func arm(_ directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // SQLite names files by their real path.
        let path = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        guard inkwell_crash_vfs_register() == 0, inkwell_crash_vfs_arm(path) == 0 else {
            throw ValidationError("the crash VFS could not be registered")
        }
    }

    /// Plans a power cut under `directory` (armed): the `operations`-th write or sync of a tracked file
    /// there fails, and every one after it, as if the machine had lost power in the middle of it.
    static func cutPower(under directory: String, after operations: UInt64) {
        let path = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        inkwell_crash_vfs_cut_power_after(path, operations)
    }
}
