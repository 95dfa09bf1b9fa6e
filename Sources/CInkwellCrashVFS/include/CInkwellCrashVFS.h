#ifndef C_INKWELL_CRASH_VFS_H
#define C_INKWELL_CRASH_VFS_H

#include <stddef.h>
#include <stdint.h>

/// A SQLite VFS that models what a power cut does to files: the operating system's page cache is lost.
///
/// Registered as SQLite's default, it wraps the platform's VFS. Files under an *armed* directory keep
/// every write that no `xSync` has covered yet in memory (visible to every connection of the process, as
/// the page cache is) and in a side log next to the file (`<file>-unsynced`, written without fsync so a
/// killed process leaves it behind). `xSync` writes them to the file and syncs it. A power cut is then:
///
/// - in this process: `inkwell_crash_vfs_cut_power`, which forgets the unsynced writes and fails every
///   later write, sync, truncate and delete under the directory until `inkwell_crash_vfs_restore_power`;
/// - in a killed process: nothing more, its memory is gone;
///
/// and afterwards `inkwell_crash_vfs_settle` replays the side logs as the disk might have kept them:
/// each unsynced write dropped, kept, torn at a 512-byte sector boundary, or kept sector by sector at
/// random. Files outside armed directories pass straight through to the platform's VFS.
///
/// A disk can also fill up or fail (`inkwell_crash_vfs_set_disk`): full, it refuses writes that grow a
/// file; failing, it refuses every read, write, truncation and sync.
///
/// Not modelled: directory entries (a created or deleted file is durable at once), and truncation, which
/// SQLite does only after a sync and which is applied at once.

/// What a settle did with the unsynced writes it found.
typedef struct inkwell_crash_outcome {
    uint64_t logs;
    uint64_t writes;
    uint64_t kept;
    uint64_t dropped;
    uint64_t torn;
    uint64_t truncations;
} inkwell_crash_outcome;

/// Registers the VFS as SQLite's default. Idempotent. Returns an SQLite result code.
int inkwell_crash_vfs_register(void);

/// Arms `directory` (an absolute path): files opened under it from now on are tracked. Returns 0, or -1
/// when the VFS is not registered or memory ran out.
int inkwell_crash_vfs_arm(const char *directory);

/// Disarms `directory`; files already open stay tracked until closed.
void inkwell_crash_vfs_disarm(const char *directory);

/// A power cut under `directory`, in this process: unsynced writes are forgotten, and writes, syncs,
/// truncations, deletions and opens of tracked files fail until power is restored. The side logs stay
/// for `inkwell_crash_vfs_settle`.
void inkwell_crash_vfs_cut_power(const char *directory);

/// Plans a power cut under `directory` in the middle of what is being written: the `operations`-th write
/// or sync of a tracked file from now on fails, and cuts the power as `inkwell_crash_vfs_cut_power` does.
void inkwell_crash_vfs_cut_power_after(const char *directory, uint64_t operations);

/// Whether the power under `directory` is cut (by a call, or by a planned cut that came).
int inkwell_crash_vfs_power_is_cut(const char *directory);

/// Lets tracked files under `directory` be written again, once their handles from before the cut are closed.
void inkwell_crash_vfs_restore_power(const char *directory);

/// The health of the disk under an armed directory.
typedef enum inkwell_disk_state {
    /// Every operation passes to the platform's VFS.
    INKWELL_DISK_HEALTHY = 0,
    /// Out of space: a write that would grow a file fails with `SQLITE_FULL`; writes within a file's
    /// size, truncations and syncs go on.
    INKWELL_DISK_FULL = 1,
    /// Failing: every read, write and truncation fails with an `SQLITE_IOERR_*` code, and so does every
    /// sync, which makes nothing durable (what was written stays readable, as in the page cache).
    INKWELL_DISK_FAILING = 2,
} inkwell_disk_state;

/// Sets the health of the disk under `directory` (an `inkwell_disk_state`), from the next operation on.
void inkwell_crash_vfs_set_disk(const char *directory, int state);

/// Files Inkwell writes itself, not through SQLite (the server's blobs), under the same model: a file
/// under an armed directory is tracked while a handle on it is, and its writes wait unsynced (in memory
/// and in the side log) until `inkwell_crash_file_sync`. The file is written through `fd` only then.
///
/// Returns a handle when `path` (an absolute, real path) is under an armed directory, else NULL: write to
/// the file directly then.
void *inkwell_crash_file_track(const char *path);

/// Keeps `length` bytes for `offset` unsynced. Returns 0, or an errno: `EIO` with the power cut or the
/// disk failing, `ENOSPC` when the disk is full and the write would grow the file (`fd`'s size, or what
/// is unsynced past it).
int inkwell_crash_file_write(void *handle, int fd, const void *bytes, size_t length, int64_t offset);

/// Writes the unsynced bytes through `fd` and fsyncs it. Returns 0, or an errno (`EIO` with the power
/// cut or the disk failing).
int inkwell_crash_file_sync(void *handle, int fd);

/// Ends a handle; what is unsynced stays, for a settle, as with SQLite's files.
void inkwell_crash_file_untrack(void *handle);

/// Writes not yet covered by a sync in tracked files under `directory`, in this process.
uint64_t inkwell_crash_vfs_unsynced_writes(const char *directory);

/// Applies every side log in `directory` (not its subdirectories) to its file as the disk might have
/// kept it, choosing by `seed`, and removes the logs. Call it with no process using the files. Returns 0,
/// or -1 with errno set.
int inkwell_crash_vfs_settle(const char *directory, uint64_t seed, inkwell_crash_outcome *outcome);

#endif
