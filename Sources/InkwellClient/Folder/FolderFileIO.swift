#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the folder transport makes, as POSIX does them: it needs an append that
/// reaches the disk (`fsync`) before the outbox lets go of what it wrote, and a file's identity
/// (device and inode) to notice a file replaced under the same name.
enum FolderFileIO {
    /// A file's identity and size, or `nil` when it is not there (or not a regular file).
    struct Status: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
    }

    static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Status(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size))
    }

    /// The bytes of `path` from `offset` to its end as it is now, at most `limit` of them.
    ///
    /// - Throws: ``FolderSyncError/io(_:path:)`` when it cannot be opened or read.
    static func read(_ path: String, from offset: Int, limit: Int) throws(FolderSyncError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io("open", path: path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var position = offset
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let wanted = min(buffer.count, limit - bytes.count)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(position)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("read", path: path)
            }
            if count == 0 { break }
            bytes += buffer.prefix(count)
            position += count
        }
        return bytes
    }

    /// Opens `path` for writing, creating nothing.
    static func openForWriting(_ path: String) throws(FolderSyncError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io("open", path: path) }
        return descriptor
    }

    /// Writes all of `bytes` at `offset` of the open file, then flushes it to the disk.
    static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int, path: String) throws(FolderSyncError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + written, bytes.count - written, off_t(offset + written))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("write", path: path)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw .io("fsync", path: path) }
    }

    /// Cuts the file at `size`, and flushes that.
    static func truncate(_ descriptor: Int32, to size: Int, path: String) throws(FolderSyncError) {
        guard ftruncate(descriptor, off_t(size)) == 0, fsync(descriptor) == 0 else { throw .io("truncate", path: path) }
    }

    /// Makes `path` holding `bytes` all at once: written and flushed under a hidden name, then renamed,
    /// and the directory flushed, so no reader ever sees it half made.
    static func create(_ path: String, in directory: String, name: String, bytes: [UInt8]) throws(FolderSyncError) {
        let temporary = directory + "/." + name + ".partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io("create", path: temporary) }
        do {
            try write(bytes, to: descriptor, at: 0, path: temporary)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        // Never over a file already there: that one is the replica's, and holds what it wrote.
        guard link(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw failure == EEXIST ? .io("create (it exists already)", path: path) : .io("link", path: path)
        }
        unlink(temporary)
        syncDirectory(directory)
    }

    /// Flushes a directory's entries, so a new file's name survives a power cut.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The names in `directory`.
    static func names(in directory: String) throws(FolderSyncError) -> [String] {
        guard let stream = opendir(directory) else { throw .io("list", path: directory) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
