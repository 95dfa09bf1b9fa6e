// The crash VFS: see CInkwellCrashVFS.h for the model. One global lock guards the tracked files; SQLite
// calls a file's methods from one thread at a time, but connections of one pool share a tracked file.

#define _GNU_SOURCE
#include "CInkwellCrashVFS.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Armed directories at once: a simulation arms one per node, and runs a seed per core.
enum { SECTOR = 512, MAX_ARMED = 1024 };

static const char LOG_SUFFIX[] = "-unsynced";
static const unsigned char RECORD_WRITE = 'W';
static const unsigned char RECORD_TRUNCATE = 'T';

/// One write no sync has covered yet.
typedef struct Pending {
    sqlite3_int64 offset;
    int length;
    struct Pending *next;
    unsigned char data[];
} Pending;

/// A file under an armed directory, shared by every handle on its path.
typedef struct Tracked {
    char *path;
    int handles;
    Pending *first;
    Pending *last;
    uint64_t count;
    /// The side log, appended to without fsync; -1 until the first unsynced write.
    int log;
    /// Whether the side log holds records: writes since the last sync, which a power cut may keep.
    int logged;
    struct Tracked *next;
} Tracked;

typedef struct Armed {
    char *directory;
    size_t length;
    int powerCut;
    /// Writes and syncs left before the power goes by itself, mid-transaction; 0 for none planned.
    uint64_t countdown;
    /// The disk's health (`inkwell_disk_state`): full, it refuses writes that grow a file; failing, it
    /// refuses every read, write, truncation and sync.
    int disk;
} Armed;

/// A handle on a tracked file; the platform's handle follows it in the same allocation.
typedef struct CrashFile {
    sqlite3_file base;
    Tracked *tracked;
    sqlite3_file *real;
} CrashFile;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs *platform;
static sqlite3_vfs crashVFS;
static Tracked *trackedFiles;
static Armed armed[MAX_ARMED];
static int armedCount;

// MARK: Armed directories

/// The armed directory holding `path`, or NULL. Call with the lock held.
static Armed *armedFor(const char *path) {
    if (path == NULL) return NULL;
    for (int i = 0; i < armedCount; i++) {
        Armed *a = &armed[i];
        if (strncmp(path, a->directory, a->length) == 0 && (path[a->length] == '/' || path[a->length] == 0)) {
            return a;
        }
    }
    return NULL;
}

static void cutUnder(Armed *a);

/// Whether the file's power is off, counting down a planned cut: the write or sync that reaches it
/// fails, as the one under way when the power went. Call with the lock held.
static int poweredOff(const Tracked *tracked) {
    Armed *a = armedFor(tracked->path);
    if (a == NULL) return 0;
    if (!a->powerCut && a->countdown > 0 && --a->countdown == 0) cutUnder(a);
    return a->powerCut;
}

/// The health of the disk the file is on. Call with the lock held.
static int diskOf(const Tracked *tracked) {
    Armed *a = armedFor(tracked->path);
    return a == NULL ? INKWELL_DISK_HEALTHY : a->disk;
}

static size_t trimmedLength(const char *directory) {
    size_t length = strlen(directory);
    while (length > 1 && directory[length - 1] == '/') length--;
    return length;
}

int inkwell_crash_vfs_arm(const char *directory) {
    if (platform == NULL) return -1;
    pthread_mutex_lock(&lock);
    size_t length = trimmedLength(directory);
    for (int i = 0; i < armedCount; i++) {
        if (armed[i].length == length && strncmp(armed[i].directory, directory, length) == 0) {
            pthread_mutex_unlock(&lock);
            return 0;
        }
    }
    char *copy = armedCount < MAX_ARMED ? strndup(directory, length) : NULL;
    if (copy == NULL) {
        pthread_mutex_unlock(&lock);
        return -1;
    }
    armed[armedCount++] = (Armed){.directory = copy, .length = length, .powerCut = 0, .countdown = 0, .disk = 0};
    pthread_mutex_unlock(&lock);
    return 0;
}

void inkwell_crash_vfs_disarm(const char *directory) {
    pthread_mutex_lock(&lock);
    size_t length = trimmedLength(directory);
    for (int i = 0; i < armedCount; i++) {
        if (armed[i].length == length && strncmp(armed[i].directory, directory, length) == 0) {
            free(armed[i].directory);
            armed[i] = armed[--armedCount];
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

// MARK: Tracked files

static void forget(Tracked *tracked) {
    Pending *p = tracked->first;
    while (p != NULL) {
        Pending *next = p->next;
        free(p);
        p = next;
    }
    tracked->first = tracked->last = NULL;
    tracked->count = 0;
}

/// The tracked file for `path`, made on first use. Call with the lock held.
static Tracked *tracking(const char *path) {
    for (Tracked *t = trackedFiles; t != NULL; t = t->next) {
        if (strcmp(t->path, path) == 0) return t;
    }
    Tracked *t = calloc(1, sizeof(Tracked));
    if (t == NULL) return NULL;
    t->path = strdup(path);
    if (t->path == NULL) {
        free(t);
        return NULL;
    }
    t->log = -1;
    t->next = trackedFiles;
    trackedFiles = t;
    return t;
}

/// The side log's path for `path`, to free; NULL when memory ran out.
static char *logName(const char *path) {
    char *name = malloc(strlen(path) + sizeof(LOG_SUFFIX));
    if (name == NULL) return NULL;
    strcpy(name, path);
    strcat(name, LOG_SUFFIX);
    return name;
}

/// Drops a tracked file with no handle and nothing unsynced. Call with the lock held.
static void release(Tracked *tracked) {
    if (tracked->handles > 0 || tracked->first != NULL) return;
    for (Tracked **link = &trackedFiles; *link != NULL; link = &(*link)->next) {
        if (*link == tracked) {
            *link = tracked->next;
            break;
        }
    }
    if (tracked->log >= 0) {
        close(tracked->log);
        // An empty log goes with the file's last handle; one a power cut left stays for the settle.
        if (!tracked->logged) {
            char *name = logName(tracked->path);
            if (name != NULL) unlink(name);
            free(name);
        }
    }
    free(tracked->path);
    free(tracked);
}

static int writeAll(int fd, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    while (length > 0) {
        ssize_t n = write(fd, p, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        length -= (size_t)n;
    }
    return 0;
}

/// Appends a record to the side log: a kind, an offset, a length and the bytes.
static int logRecord(Tracked *tracked, unsigned char kind, sqlite3_int64 offset, int length, const void *bytes) {
    if (tracked->log < 0) {
        char *name = logName(tracked->path);
        if (name == NULL) return -1;
        tracked->log = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        free(name);
        if (tracked->log < 0) return -1;
    }
    unsigned char header[13];
    header[0] = kind;
    uint64_t o = (uint64_t)offset;
    uint32_t l = (uint32_t)length;
    memcpy(header + 1, &o, 8);
    memcpy(header + 9, &l, 4);
    tracked->logged = 1;
    if (writeAll(tracked->log, header, sizeof header) != 0) return -1;
    if (length > 0 && writeAll(tracked->log, bytes, (size_t)length) != 0) return -1;
    return 0;
}

static int resetLog(Tracked *tracked) {
    if (tracked->log < 0) return 0;
    tracked->logged = 0;
    return ftruncate(tracked->log, 0);
}

// MARK: File methods

static int crashClose(sqlite3_file *file) {
    CrashFile *f = (CrashFile *)file;
    int rc = f->real->pMethods != NULL ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    pthread_mutex_lock(&lock);
    f->tracked->handles--;
    release(f->tracked);
    pthread_mutex_unlock(&lock);
    return rc;
}

static sqlite3_int64 pendingEnd(const Tracked *tracked) {
    sqlite3_int64 end = 0;
    // A write a truncation cut to nothing no longer reaches past the new end.
    for (const Pending *p = tracked->first; p != NULL; p = p->next) {
        if (p->length > 0 && p->offset + p->length > end) end = p->offset + p->length;
    }
    return end;
}

static int crashRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    CrashFile *f = (CrashFile *)file;
    pthread_mutex_lock(&lock);
    if (diskOf(f->tracked) == INKWELL_DISK_FAILING) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_READ;
    }
    int rc = f->real->pMethods->xRead(f->real, buffer, amount, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
        pthread_mutex_unlock(&lock);
        return rc;
    }
    sqlite3_int64 size = 0;
    int sizeRC = f->real->pMethods->xFileSize(f->real, &size);
    if (sizeRC != SQLITE_OK) {
        pthread_mutex_unlock(&lock);
        return sizeRC;
    }
    sqlite3_int64 end = pendingEnd(f->tracked);
    if (end > size) size = end;
    for (const Pending *p = f->tracked->first; p != NULL; p = p->next) {
        sqlite3_int64 from = p->offset > offset ? p->offset : offset;
        sqlite3_int64 to = p->offset + p->length < offset + amount ? p->offset + p->length : offset + amount;
        if (from < to) memcpy((unsigned char *)buffer + (from - offset), p->data + (from - p->offset), (size_t)(to - from));
    }
    pthread_mutex_unlock(&lock);
    if (offset + amount <= size) return SQLITE_OK;
    // Short: what lies past the end reads as zeros, as SQLite expects of a short read.
    if (size > offset) {
        memset((unsigned char *)buffer + (size - offset), 0, (size_t)(offset + amount - size));
    } else {
        memset(buffer, 0, (size_t)amount);
    }
    return SQLITE_IOERR_SHORT_READ;
}

/// Whether a write of `length` bytes at `offset` would grow the file: past its size on disk, `size`, and
/// past what is unsynced beyond it. A full disk refuses such a write. Call with the lock held.
static int growsFile(const Tracked *tracked, sqlite3_int64 size, sqlite3_int64 offset, sqlite3_int64 length) {
    sqlite3_int64 end = pendingEnd(tracked);
    return offset + length > (end > size ? end : size);
}

/// Keeps a write unsynced: in memory, where reads see it, and in the side log, for a settle. Returns 0,
/// `ENOMEM` when there is no memory to keep it, `ENOSPC` when the side log's disk is full, or `EIO` when
/// the side log could not be written. Call with the lock held.
static int keepUnsynced(Tracked *tracked, sqlite3_int64 offset, int length, const void *bytes) {
    Pending *p = malloc(sizeof(Pending) + (size_t)length);
    if (p == NULL) return ENOMEM;
    if (logRecord(tracked, RECORD_WRITE, offset, length, bytes) != 0) {
        int error = errno == ENOSPC ? ENOSPC : EIO;
        free(p);
        return error;
    }
    p->offset = offset;
    p->length = length;
    p->next = NULL;
    memcpy(p->data, bytes, (size_t)length);
    if (tracked->last != NULL) {
        tracked->last->next = p;
    } else {
        tracked->first = p;
    }
    tracked->last = p;
    tracked->count++;
    return 0;
}

static int crashWrite(sqlite3_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    CrashFile *f = (CrashFile *)file;
    pthread_mutex_lock(&lock);
    int disk = diskOf(f->tracked);
    int rc = SQLITE_OK;
    if (poweredOff(f->tracked) || disk == INKWELL_DISK_FAILING) {
        rc = SQLITE_IOERR_WRITE;
    } else if (disk == INKWELL_DISK_FULL) {
        // A full disk still takes writes within a file's blocks, and refuses those that need new ones.
        sqlite3_int64 size = 0;
        f->real->pMethods->xFileSize(f->real, &size);
        if (growsFile(f->tracked, size, offset, amount)) rc = SQLITE_FULL;
    }
    if (rc == SQLITE_OK) {
        int kept = keepUnsynced(f->tracked, offset, amount, bytes);
        if (kept == ENOMEM) rc = SQLITE_IOERR_NOMEM;
        else if (kept == ENOSPC) rc = SQLITE_FULL;
        else if (kept != 0) rc = SQLITE_IOERR_WRITE;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashTruncate(sqlite3_file *file, sqlite3_int64 size) {
    CrashFile *f = (CrashFile *)file;
    pthread_mutex_lock(&lock);
    if (poweredOff(f->tracked)) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_TRUNCATE;
    }
    if (diskOf(f->tracked) == INKWELL_DISK_FAILING) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_TRUNCATE;
    }
    // Unsynced writes past the new end are cut; the log records the truncation so a settle cuts them too.
    for (Pending *p = f->tracked->first; p != NULL; p = p->next) {
        if (p->offset >= size) {
            p->length = 0;
        } else if (p->offset + p->length > size) {
            p->length = (int)(size - p->offset);
        }
    }
    if (f->tracked->first != NULL && logRecord(f->tracked, RECORD_TRUNCATE, size, 0, NULL) != 0) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_TRUNCATE;
    }
    int rc = f->real->pMethods->xTruncate(f->real, size);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashSync(sqlite3_file *file, int flags) {
    CrashFile *f = (CrashFile *)file;
    pthread_mutex_lock(&lock);
    // A failing disk's sync fails and makes nothing durable; what was written stays in the cache.
    if (poweredOff(f->tracked) || diskOf(f->tracked) == INKWELL_DISK_FAILING) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_FSYNC;
    }
    for (Pending *p = f->tracked->first; p != NULL; p = p->next) {
        if (p->length == 0) continue;
        int rc = f->real->pMethods->xWrite(f->real, p->data, p->length, p->offset);
        if (rc != SQLITE_OK) {
            pthread_mutex_unlock(&lock);
            return rc;
        }
    }
    int rc = f->real->pMethods->xSync(f->real, flags);
    if (rc == SQLITE_OK) {
        forget(f->tracked);
        if (resetLog(f->tracked) != 0) rc = SQLITE_IOERR_FSYNC;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    CrashFile *f = (CrashFile *)file;
    pthread_mutex_lock(&lock);
    int rc = f->real->pMethods->xFileSize(f->real, size);
    if (rc == SQLITE_OK) {
        sqlite3_int64 end = pendingEnd(f->tracked);
        if (end > *size) *size = end;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashLock(sqlite3_file *file, int level) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xLock(f->real, level);
}

static int crashUnlock(sqlite3_file *file, int level) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int crashCheckReservedLock(sqlite3_file *file, int *out) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int crashFileControl(sqlite3_file *file, int op, void *argument) {
    CrashFile *f = (CrashFile *)file;
    // Memory-mapped reads would bypass the unsynced writes: none.
    if (op == SQLITE_FCNTL_MMAP_SIZE) {
        *(sqlite3_int64 *)argument = 0;
        return SQLITE_OK;
    }
    return f->real->pMethods->xFileControl(f->real, op, argument);
}

static int crashSectorSize(sqlite3_file *file) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int crashDeviceCharacteristics(sqlite3_file *file) {
    CrashFile *f = (CrashFile *)file;
    int characteristics = f->real->pMethods->xDeviceCharacteristics(f->real);
    // Nothing here is atomic or ordered: a torn or reordered write is what this VFS is for.
    return characteristics & SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static int crashShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **mapped) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, mapped);
}

static int crashShmLock(sqlite3_file *file, int offset, int n, int flags) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void crashShmBarrier(sqlite3_file *file) {
    CrashFile *f = (CrashFile *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int crashShmUnmap(sqlite3_file *file, int deleteFlag) {
    CrashFile *f = (CrashFile *)file;
    return f->real->pMethods->xShmUnmap(f->real, deleteFlag);
}

static int crashFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    (void)file;
    (void)offset;
    (void)amount;
    *pointer = NULL;
    return SQLITE_OK;
}

static int crashUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    (void)file;
    (void)offset;
    (void)pointer;
    return SQLITE_OK;
}

static const sqlite3_io_methods crashMethods = {
    .iVersion = 3,
    .xClose = crashClose,
    .xRead = crashRead,
    .xWrite = crashWrite,
    .xTruncate = crashTruncate,
    .xSync = crashSync,
    .xFileSize = crashFileSize,
    .xLock = crashLock,
    .xUnlock = crashUnlock,
    .xCheckReservedLock = crashCheckReservedLock,
    .xFileControl = crashFileControl,
    .xSectorSize = crashSectorSize,
    .xDeviceCharacteristics = crashDeviceCharacteristics,
    .xShmMap = crashShmMap,
    .xShmLock = crashShmLock,
    .xShmBarrier = crashShmBarrier,
    .xShmUnmap = crashShmUnmap,
    .xFetch = crashFetch,
    .xUnfetch = crashUnfetch,
};

// MARK: The VFS

static size_t realOffset(void) {
    return (sizeof(CrashFile) + 15) & ~(size_t)15;
}

static int crashOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    pthread_mutex_lock(&lock);
    Armed *a = armedFor(name);
    if (a == NULL) {
        pthread_mutex_unlock(&lock);
        // Not armed: the platform's file, in place.
        return platform->xOpen(platform, name, file, flags, outFlags);
    }
    if (a->powerCut) {
        pthread_mutex_unlock(&lock);
        file->pMethods = NULL;
        return SQLITE_CANTOPEN;
    }
    Tracked *tracked = tracking(name);
    if (tracked == NULL) {
        pthread_mutex_unlock(&lock);
        file->pMethods = NULL;
        return SQLITE_NOMEM;
    }
    tracked->handles++;
    pthread_mutex_unlock(&lock);
    CrashFile *f = (CrashFile *)file;
    f->tracked = tracked;
    f->real = (sqlite3_file *)((unsigned char *)file + realOffset());
    int rc = platform->xOpen(platform, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        pthread_mutex_lock(&lock);
        tracked->handles--;
        release(tracked);
        pthread_mutex_unlock(&lock);
        file->pMethods = NULL;
        return rc;
    }
    file->pMethods = &crashMethods;
    return SQLITE_OK;
}

static int crashDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    pthread_mutex_lock(&lock);
    Armed *a = armedFor(name);
    if (a != NULL && a->powerCut) {
        pthread_mutex_unlock(&lock);
        return SQLITE_IOERR_DELETE;
    }
    int rc = platform->xDelete(platform, name, syncDirectory);
    if (a != NULL && rc == SQLITE_OK) {
        for (Tracked *t = trackedFiles; t != NULL; t = t->next) {
            if (strcmp(t->path, name) == 0) {
                forget(t);
                resetLog(t);
                release(t);
                break;
            }
        }
        char *log = logName(name);
        if (log != NULL) unlink(log);
        free(log);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int inkwell_crash_vfs_register(void) {
    pthread_mutex_lock(&lock);
    if (platform != NULL) {
        pthread_mutex_unlock(&lock);
        return SQLITE_OK;
    }
    sqlite3_vfs *base = sqlite3_vfs_find(NULL);
    if (base == NULL) {
        pthread_mutex_unlock(&lock);
        return SQLITE_ERROR;
    }
    crashVFS = *base;
    crashVFS.pNext = NULL;
    crashVFS.zName = "inkwell-crash";
    crashVFS.szOsFile = (int)(realOffset() + (size_t)base->szOsFile);
    crashVFS.xOpen = crashOpen;
    crashVFS.xDelete = crashDelete;
    platform = base;
    int rc = sqlite3_vfs_register(&crashVFS, 1);
    if (rc != SQLITE_OK) platform = NULL;
    pthread_mutex_unlock(&lock);
    return rc;
}

// MARK: Files written without SQLite

static int pwriteAll(int fd, const unsigned char *bytes, size_t length, off_t offset);

void *inkwell_crash_file_track(const char *path) {
    pthread_mutex_lock(&lock);
    Tracked *t = armedFor(path) != NULL ? tracking(path) : NULL;
    if (t != NULL) t->handles++;
    pthread_mutex_unlock(&lock);
    return t;
}

int inkwell_crash_file_write(void *handle, int fd, const void *bytes, size_t length, int64_t offset) {
    Tracked *t = handle;
    if (length > INT32_MAX) return EINVAL;
    pthread_mutex_lock(&lock);
    int disk = diskOf(t);
    int rc = 0;
    if (poweredOff(t) || disk == INKWELL_DISK_FAILING) {
        rc = EIO;
    } else if (disk == INKWELL_DISK_FULL) {
        struct stat info;
        sqlite3_int64 size = fstat(fd, &info) == 0 ? (sqlite3_int64)info.st_size : 0;
        if (growsFile(t, size, offset, (sqlite3_int64)length)) rc = ENOSPC;
    }
    if (rc == 0) rc = keepUnsynced(t, offset, (int)length, bytes);
    pthread_mutex_unlock(&lock);
    return rc;
}

int inkwell_crash_file_sync(void *handle, int fd) {
    Tracked *t = handle;
    pthread_mutex_lock(&lock);
    if (poweredOff(t) || diskOf(t) == INKWELL_DISK_FAILING) {
        pthread_mutex_unlock(&lock);
        return EIO;
    }
    for (Pending *p = t->first; p != NULL; p = p->next) {
        if (p->length > 0 && pwriteAll(fd, p->data, (size_t)p->length, (off_t)p->offset) != 0) {
            int error = errno;
            pthread_mutex_unlock(&lock);
            return error;
        }
    }
    int rc = 0;
    while (fsync(fd) != 0) {
        if (errno != EINTR) {
            rc = errno;
            break;
        }
    }
    if (rc == 0) {
        forget(t);
        if (resetLog(t) != 0) rc = EIO;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void inkwell_crash_file_untrack(void *handle) {
    Tracked *t = handle;
    pthread_mutex_lock(&lock);
    t->handles--;
    release(t);
    pthread_mutex_unlock(&lock);
}

// MARK: Power

/// The armed directory named exactly `directory`, or NULL. Call with the lock held.
static Armed *armedNamed(const char *directory) {
    size_t length = trimmedLength(directory);
    for (int i = 0; i < armedCount; i++) {
        if (armed[i].length == length && strncmp(armed[i].directory, directory, length) == 0) return &armed[i];
    }
    return NULL;
}

/// Cuts the power under `a`: its files' unsynced writes are forgotten. Call with the lock held.
static void cutUnder(Armed *a) {
    a->powerCut = 1;
    a->countdown = 0;
    for (Tracked *t = trackedFiles; t != NULL; t = t->next) {
        if (armedFor(t->path) == a) forget(t);
    }
}

void inkwell_crash_vfs_cut_power(const char *directory) {
    pthread_mutex_lock(&lock);
    Armed *a = armedNamed(directory);
    if (a != NULL) cutUnder(a);
    pthread_mutex_unlock(&lock);
}

void inkwell_crash_vfs_cut_power_after(const char *directory, uint64_t operations) {
    pthread_mutex_lock(&lock);
    Armed *a = armedNamed(directory);
    if (a != NULL && !a->powerCut) a->countdown = operations;
    pthread_mutex_unlock(&lock);
}

int inkwell_crash_vfs_power_is_cut(const char *directory) {
    pthread_mutex_lock(&lock);
    Armed *a = armedNamed(directory);
    int cut = a != NULL && a->powerCut;
    pthread_mutex_unlock(&lock);
    return cut;
}

void inkwell_crash_vfs_restore_power(const char *directory) {
    pthread_mutex_lock(&lock);
    Armed *a = armedNamed(directory);
    if (a != NULL) {
        a->powerCut = 0;
        a->countdown = 0;
    }
    pthread_mutex_unlock(&lock);
}

void inkwell_crash_vfs_set_disk(const char *directory, int state) {
    pthread_mutex_lock(&lock);
    Armed *a = armedNamed(directory);
    if (a != NULL) a->disk = state;
    pthread_mutex_unlock(&lock);
}

uint64_t inkwell_crash_vfs_unsynced_writes(const char *directory) {
    pthread_mutex_lock(&lock);
    size_t length = trimmedLength(directory);
    uint64_t count = 0;
    for (Tracked *t = trackedFiles; t != NULL; t = t->next) {
        if (strncmp(t->path, directory, length) == 0 && t->path[length] == '/') count += t->count;
    }
    pthread_mutex_unlock(&lock);
    return count;
}

// MARK: Settling

/// splitmix64: a small, well-mixed generator, so a seed replays the same settle.
static uint64_t nextRandom(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int pwriteAll(int fd, const unsigned char *bytes, size_t length, off_t offset) {
    while (length > 0) {
        ssize_t n = pwrite(fd, bytes, length, offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += n;
        length -= (size_t)n;
        offset += n;
    }
    return 0;
}

/// Writes the sectors of a logged write that the disk kept: all, none, a prefix up to a sector boundary,
/// or each sector at random.
static int settleWrite(int fd, uint64_t offset, const unsigned char *bytes, uint32_t length, uint64_t *random,
                       inkwell_crash_outcome *outcome) {
    outcome->writes++;
    uint64_t choice = nextRandom(random) % 4;
    if (choice == 0) {
        outcome->dropped++;
        return 0;
    }
    if (choice == 1) {
        outcome->kept++;
        return pwriteAll(fd, bytes, length, (off_t)offset);
    }
    outcome->torn++;
    // The write's sector boundaries, on the file's sector grid.
    uint64_t end = offset + length;
    uint64_t boundaries = (end - 1) / SECTOR - offset / SECTOR + 1;
    uint64_t prefix = choice == 2 ? nextRandom(random) % boundaries : boundaries;
    uint64_t start = offset;
    for (uint64_t sector = 0; sector < boundaries && start < end; sector++) {
        uint64_t stop = (start / SECTOR + 1) * SECTOR;
        if (stop > end) stop = end;
        int keep = choice == 2 ? sector < prefix : (int)(nextRandom(random) & 1);
        if (keep && pwriteAll(fd, bytes + (start - offset), (size_t)(stop - start), (off_t)start) != 0) return -1;
        start = stop;
    }
    return 0;
}

static int settleLog(const char *logPath, const char *filePath, uint64_t *random, inkwell_crash_outcome *outcome) {
    int log = open(logPath, O_RDONLY | O_CLOEXEC);
    if (log < 0) return -1;
    struct stat info;
    if (fstat(log, &info) != 0) {
        close(log);
        return -1;
    }
    size_t size = (size_t)info.st_size;
    unsigned char *bytes = size > 0 ? malloc(size) : NULL;
    if (size > 0 && bytes == NULL) {
        close(log);
        errno = ENOMEM;
        return -1;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(log, bytes + got, size - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(log);
    int rc = 0;
    int fd = got > 0 ? open(filePath, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -2;
    if (fd == -1) rc = -1;
    outcome->logs++;
    size_t at = 0;
    // A record cut short by the kill was never written: it ends the log.
    while (rc == 0 && fd >= 0 && at + 13 <= got) {
        unsigned char kind = bytes[at];
        uint64_t offset;
        uint32_t length;
        memcpy(&offset, bytes + at + 1, 8);
        memcpy(&length, bytes + at + 9, 4);
        if (at + 13 + length > got) break;
        if (kind == RECORD_WRITE) {
            rc = settleWrite(fd, offset, bytes + at + 13, length, random, outcome);
        } else if (kind == RECORD_TRUNCATE) {
            outcome->truncations++;
            rc = ftruncate(fd, (off_t)offset);
        } else {
            break;
        }
        at += 13 + length;
    }
    if (fd >= 0) {
        if (rc == 0) rc = fsync(fd);
        close(fd);
    }
    free(bytes);
    if (rc == 0) rc = unlink(logPath);
    return rc;
}

int inkwell_crash_vfs_settle(const char *directory, uint64_t seed, inkwell_crash_outcome *outcome) {
    inkwell_crash_outcome ignored;
    if (outcome == NULL) outcome = &ignored;
    memset(outcome, 0, sizeof *outcome);
    uint64_t random = seed;
    size_t suffix = strlen(LOG_SUFFIX);
    // Logs in name order, so a seed settles the same files the same way.
    struct dirent **names = NULL;
    int count = scandir(directory, &names, NULL, alphasort);
    if (count < 0) return -1;
    int rc = 0;
    for (int i = 0; i < count; i++) {
        const char *name = names[i]->d_name;
        size_t length = strlen(name);
        if (rc == 0 && length > suffix && strcmp(name + length - suffix, LOG_SUFFIX) == 0) {
            size_t base = strlen(directory);
            char *logPath = malloc(base + 1 + length + 1);
            char *filePath = malloc(base + 1 + length + 1);
            if (logPath == NULL || filePath == NULL) {
                errno = ENOMEM;
                rc = -1;
            } else {
                sprintf(logPath, "%s/%s", directory, name);
                sprintf(filePath, "%s/%.*s", directory, (int)(length - suffix), name);
                rc = settleLog(logPath, filePath, &random, outcome);
            }
            free(logPath);
            free(filePath);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}
