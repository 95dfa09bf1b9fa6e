import CInkwellCrashVFS
import Foundation
import Hummingbird
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file an upload streams into. Every call blocks, so ``BlobStore`` makes them on its I/O queue.
///
/// Under a directory the crash VFS arms (`serve --crash-vfs`, CInkwellCrashVFS.h) its writes wait unsynced,
/// in memory and in a side log, as SQLite's files' do there: the power-loss tests then cover blobs too. In
/// any other directory it writes straight to the file.
final class BlobFile: Sendable {
    let descriptor: Int32
    /// The crash VFS's handle on the file, under an armed directory.
    private let crash: CrashHandle?
    /// Where the next write goes: the crash VFS's writes say where.
    private let written = Mutex<Int64>(0)

    private init(descriptor: Int32, crash: CrashHandle?) {
        self.descriptor = descriptor
        self.crash = crash
    }

    /// Creates `path`, which must not exist yet.
    static func create(at path: String) throws -> BlobFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BlobStoreError.fileSystem("open", errno: errno) }
        // The crash VFS names files by their real path.
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return BlobFile(descriptor: descriptor, crash: inkwell_crash_file_track(real).map(CrashHandle.init))
    }

    /// Appends all of `buffer`, retrying short writes.
    func append(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            if let crash {
                try written.withLock { offset in
                    let failure = inkwell_crash_file_write(crash.pointer, descriptor, base, bytes.count, offset)
                    guard failure == 0 else { throw BlobStoreError.fileSystem("write", errno: failure) }
                    offset += Int64(bytes.count)
                }
                return
            }
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw BlobStoreError.fileSystem("write", errno: errno)
                }
                offset += written
            }
        }
    }

    /// Makes the written bytes durable.
    func synchronize() throws {
        if let crash {
            let failure = inkwell_crash_file_sync(crash.pointer, descriptor)
            guard failure == 0 else { throw BlobStoreError.fileSystem("fsync", errno: failure) }
            return
        }
        try Self.synchronize(descriptor)
    }

    func closeDescriptor() {
        _ = close(descriptor)
        if let crash { inkwell_crash_file_untrack(crash.pointer) }
    }

    private static func synchronize(_ descriptor: Int32) throws {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw BlobStoreError.fileSystem("fsync", errno: errno) }
        }
    }
}

/// The crash VFS's handle on a tracked file: its calls take the VFS's lock, so any thread may make them.
private struct CrashHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Small blocking file-system calls for ``BlobStore``.
enum BlobFileSystem {
    /// Makes a directory's entries (a new name, a removed one) durable.
    static func synchronizeDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BlobStoreError.fileSystem("open directory", errno: errno) }
        defer { _ = close(descriptor) }
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw BlobStoreError.fileSystem("fsync directory", errno: errno) }
        }
    }

    /// Creates a directory; `false` if it already existed.
    static func makeDirectory(_ path: String) throws -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        if errno == EEXIST { return false }
        throw BlobStoreError.fileSystem("mkdir", errno: errno)
    }

    /// The size of a regular file, or `nil` when there is none at `path`.
    ///
    /// Read through `FileManager`, not `stat(2)`: the C `stat` struct is visible through more than one
    /// module on Linux, and which one the compiler credits it to varies between builds.
    static func regularFileSize(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.intValue
    }

    /// Gives the complete file at `source` the name `destination` unless that name exists: `true` if it was
    /// installed, `false` if another upload of the same blob got there first. `source` is gone either way.
    static func install(_ source: String, as destination: String) throws -> Bool {
        // A hard link never replaces an existing name, which a rename would.
        if link(source, destination) == 0 {
            _ = unlink(source)
            return true
        }
        switch errno {
        case EEXIST:
            _ = unlink(source)
            return false
        case EPERM, ENOTSUP, EXDEV, EMLINK:
            // File systems without hard links: rename atomically instead. Blobs are named by their content,
            // so replacing a concurrent copy leaves the same bytes.
            guard rename(source, destination) == 0 else { throw BlobStoreError.fileSystem("rename", errno: errno) }
            return true
        default:
            throw BlobStoreError.fileSystem("link", errno: errno)
        }
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
