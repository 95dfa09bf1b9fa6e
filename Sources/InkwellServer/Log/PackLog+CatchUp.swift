import Foundation
import GRDB
package import InkwellWire
package import NIOCore

extension PackLog {
    /// One room of a catch-up read.
    package struct CatchUpRequest: Hashable, Sendable {
        package let room: String
        /// The last position the follower was sent.
        package let after: UInt64
        /// Whether to read the room's progress from `after` as well: a subscription's first read.
        package let withProgress: Bool
        /// A snapshot whose parts the follower was sent already, in a rebase: left out.
        package var skipping: SnapshotID? = nil

        package init(room: String, after: UInt64, withProgress: Bool, skipping: SnapshotID? = nil) {
            self.room = room
            self.after = after
            self.withProgress = withProgress
            self.skipping = skipping
        }
    }

    /// What a catch-up read found for one room.
    package struct CatchUpRead {
        package let room: String
        /// The room's head and the bytes stored after the request's position, when asked for.
        package var progress: (head: UInt64, bytesAfter: UInt64)?
        /// The room's next packs as the start of a `packs` frame; nil when there are none.
        package var frame: CatchUpFrame?

        package init(room: String) { self.room = room }
    }

    /// Reads the next packs of several rooms in one read transaction, in order, about `maximumBytes`
    /// in all and at least one pack. A device that subscribes to a hundred small rooms is caught up in
    /// a few reads and writes, not a hundred of each. Each pack is copied once, from SQLite's row
    /// straight into its frame's buffer.
    ///
    /// - Returns: a read for each request, in order, up to the first room whose next pack did not fit
    ///   (left out, progress included, for the next read). The first request always has its read.
    package func catchUp(
        _ requests: [CatchUpRequest],
        maximumBytes: Int,
        allocator: ByteBufferAllocator
    ) async throws -> [CatchUpRead] {
        try await reading {
            try await database.read { db in
                try Self.catchUp(requests, maximumBytes: maximumBytes, allocator: allocator, in: db)
            }
        }
    }

    private static func catchUp(
        _ requests: [CatchUpRequest],
        maximumBytes: Int,
        allocator: ByteBufferAllocator,
        in db: Database
    ) throws -> [CatchUpRead] {
        var reads: [CatchUpRead] = []
        var total = 0
        for request in requests {
            // The sizes first: SQLite reads a blob's length from its row, not its overflow pages, so the
            // frame's buffer is allocated once at its size instead of growing (a copy and fresh pages
            // each time).
            var count = 0
            var packBytes = 0
            var full = false
            let sizes = try Int.fetchCursor(
                db.cachedStatement(
                    sql:
                        "SELECT LENGTH(bytes) FROM pack WHERE room = ? AND position > ? \(skipClause) ORDER BY position"
                ),
                arguments: [request.room, Int64(clamping: request.after), request.room, skipped(request)]
            )
            while let size = try sizes.next() {
                // At least one pack in every read.
                if total + packBytes > 0, total + packBytes + size > maximumBytes {
                    full = true
                    break
                }
                count += 1
                packBytes += size
            }
            // A room whose first pack does not fit waits for the next read, its progress with it.
            if full, count == 0 { break }
            var read = CatchUpRead(room: request.room)
            if count > 0 {
                var frame = CatchUpFrame(room: request.room, packs: count, packBytes: packBytes, allocator: allocator)
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: "SELECT position, bytes FROM pack WHERE room = ? AND position > ? \(skipClause) "
                            + "ORDER BY position LIMIT ?"
                    ),
                    arguments: [request.room, Int64(clamping: request.after), request.room, skipped(request), count]
                )
                while let row = try rows.next() {
                    try row.withUnsafeData(atIndex: 1) { data in
                        frame.append(serverSeq: UInt64(row[0] as Int64), count: data?.count ?? 0) { buffer in
                            _ = data?.withUnsafeBytes { buffer.writeBytes($0) }
                        }
                    }
                }
                read.frame = frame
            }
            total += packBytes
            if request.withProgress {
                read.progress = try Self.progress(room: request.room, after: request.after, in: db)
            }
            reads.append(read)
            if full { break }
        }
        return reads
    }

    /// Leaves out the parts of the snapshot a request skips (none when it names no snapshot: no part
    /// has an empty id).
    private static let skipClause =
        "AND position NOT IN (SELECT position FROM snapshot_part WHERE room = ? AND snapshot = ?)"

    private static func skipped(_ request: CatchUpRequest) -> Data {
        Data(request.skipping?.bytes ?? [])
    }

    /// A `packs` frame being written: space for its head, then its stored packs; ``finish(head:)``
    /// adds the room's head and puts the frame's start in front.
    package struct CatchUpFrame {
        package let room: String
        /// The position of the last pack in the frame.
        package private(set) var last: UInt64?
        private var buffer: ByteBuffer
        private let packsStart: Int
        private var header: [UInt8] = []

        /// A frame for `packs` stored packs of `packBytes` bytes in all, allocated at its size.
        package init(room: String, packs: Int, packBytes: Int, allocator: ByteBufferAllocator) {
            self.room = room
            packsStart = SyncCodec.packsFrameHeadMaximumBytes(room: room)
            buffer = allocator.buffer(
                capacity: packsStart + packBytes + packs * SyncCodec.storedPackHeaderMaximumBytes
                    + SyncCodec.packsFrameTailMaximumBytes
            )
            buffer.writeRepeatingByte(0, count: packsStart)
            header.reserveCapacity(32)
        }

        /// Adds a stored pack of `count` bytes, which `write` writes.
        package mutating func append(serverSeq: UInt64, count: Int, write: (inout ByteBuffer) -> Void) {
            header.removeAll(keepingCapacity: true)
            SyncCodec.appendStoredPackHeader(serverSeq: serverSeq, packBytes: count, to: &header)
            buffer.writeBytes(header)
            let start = buffer.writerIndex
            write(&buffer)
            precondition(buffer.writerIndex - start == count, "a stored pack wrote other than its size")
            last = serverSeq
        }

        /// The whole frame: the bytes ``SyncCodec/encode(_:)-(ServerMessage)`` writes for
        /// `.packs(room:packs:head:)` with these packs. The frame keeps nothing: its buffer is moved
        /// out first, so that it is not shared and writing the head and tail copies no pack.
        package mutating func finish(head: UInt64) -> ByteBuffer {
            var buffer = self.buffer
            self.buffer = ByteBuffer()
            buffer.writeBytes(SyncCodec.packsFrameTail(head: head))
            let start = SyncCodec.packsFrameHead(room: room, bodyBytes: buffer.writerIndex - packsStart)
            buffer.setBytes(start, at: packsStart - start.count)
            buffer.moveReaderIndex(to: packsStart - start.count)
            return buffer
        }
    }
}
