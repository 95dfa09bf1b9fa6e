import CInkwellCrashVFS
import Foundation
import InkwellSync
import InkwellWire
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This replica's file in the folder for one room: the only file it ever writes there, and only at its
/// end. Named after the replica (`<replica>.ink`), so no two replicas write one file.
///
/// Under a directory the crash VFS arms (`join --crash-vfs`, CInkwellCrashVFS.h) its appends wait
/// unsynced, in memory and in a side log, until the sync, as the server's blob files do there: the
/// power-loss tests then cover the folder too. In any other directory it writes straight to the file.
final class OwnFolderFile {
    let room: String
    let replica: ReplicaID
    let name: String
    let path: String
    private let descriptor: Int32
    /// The crash VFS's handle on the file, under an armed directory.
    private let crash: UnsafeMutableRawPointer?
    /// Where the next record goes: the file's end.
    private var end: Int

    /// Opens the file, making it if it is not there. A tail that is not a whole record (a write the
    /// process or the machine did not finish) is cut off first: what follows would be unreadable.
    ///
    /// - Returns: the file, and the packs it already holds: this replica's own changes, which a crash may
    ///   have left in the outbox after they were written.
    /// - Throws: ``FolderSyncError/foreignOwnFile(path:reason:)`` for a file under this replica's name
    ///   that is not its own; ``FolderSyncError/io(_:path:code:)``.
    static func open(
        directory: String,
        room: String,
        replica: ReplicaID,
        logger: Logger
    ) throws(FolderSyncError) -> (file: OwnFolderFile, packs: [FolderLogReader.Entry]) {
        let name = "\(replica).\(FolderLog.fileExtension)"
        let path = directory + "/" + name
        if FolderFileIO.status(path) == nil {
            do {
                try FolderFileIO.create(
                    path,
                    in: directory,
                    name: name,
                    bytes: FolderLog.fileStart(room: room, replica: replica)
                )
            } catch .io(_, _, EEXIST) {
                // Made meanwhile: read below like any file found there.
            }
        }
        let bytes = try FolderFileIO.read(path, from: 0, limit: .max)
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        guard case .header(let headerRoom, let headerReplica) = chunk.entries.first?.record else {
            throw .foreignOwnFile(path: path, reason: "\(chunk.stop)")
        }
        guard headerRoom == room, headerReplica == replica else {
            throw .foreignOwnFile(path: path, reason: "its header names room \(headerRoom), replica \(headerReplica)")
        }
        if case .newerVersion(let version) = chunk.stop {
            throw .foreignOwnFile(path: path, reason: "written by a newer format, version \(version)")
        }
        let descriptor = try FolderFileIO.openForWriting(path)
        if chunk.next < bytes.count {
            logger.warning(
                "own folder file cut back to its last whole record",
                metadata: ["file": "\(name)", "kept": "\(chunk.next)", "dropped": "\(bytes.count - chunk.next)"]
            )
            do {
                try FolderFileIO.truncate(descriptor, to: chunk.next, path: path)
            } catch {
                close(descriptor)
                throw error
            }
        }
        // The crash VFS names files by their real path.
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let file = OwnFolderFile(
            room: room,
            replica: replica,
            name: name,
            path: path,
            descriptor: descriptor,
            crash: inkwell_crash_file_track(real),
            end: chunk.next
        )
        return (file, Array(chunk.entries.dropFirst()))
    }

    private init(
        room: String,
        replica: ReplicaID,
        name: String,
        path: String,
        descriptor: Int32,
        crash: UnsafeMutableRawPointer?,
        end: Int
    ) {
        self.room = room
        self.replica = replica
        self.name = name
        self.path = path
        self.descriptor = descriptor
        self.crash = crash
        self.end = end
    }

    deinit {
        close(descriptor)
        if let crash { inkwell_crash_file_untrack(crash) }
    }

    /// Appends the packs as records, in one write, and flushes them to the disk before returning. A write
    /// that fails part-way is cut off again, so the next starts at a record's end.
    func append(packs: [[UInt8]]) throws(FolderSyncError) {
        let bytes = packs.flatMap { FolderLog.encode(.pack($0)) }
        do throws(FolderSyncError) {
            if let crash {
                let failure = bytes.withUnsafeBytes {
                    inkwell_crash_file_write(crash, descriptor, $0.baseAddress, $0.count, Int64(end))
                }
                guard failure == 0 else { throw FolderSyncError.io("write", path: path, code: failure) }
                let synced = inkwell_crash_file_sync(crash, descriptor)
                guard synced == 0 else { throw FolderSyncError.io("fsync", path: path, code: synced) }
            } else {
                try FolderFileIO.write(bytes, to: descriptor, at: end, path: path)
            }
            end += bytes.count
        } catch {
            if crash == nil { try? FolderFileIO.truncate(descriptor, to: end, path: path) }
            throw error
        }
    }
}
