import InkwellWire
import Logging
import NIOCore
import Prometheus
import Synchronization

/// Catch-up: a follower is sent a room's packs from its position until it reaches the head.
extension SyncEndpoint {
    /// Sends rooms' packs from where the follower stands until each reaches its room's head; then
    /// each room follows live. The rooms are read from the log together, about
    /// ``ServerLimits/catchUpFrameBytes`` a read and a frame per room, and their frames go out in one
    /// write: a device that subscribes to a hundred rooms is caught up in a few round trips.
    ///
    /// A room goes live as soon as its frame reaches the head, before the write: live packs are queued
    /// behind this writer, which sends them only after the frames and the room's last progress.
    func catchUp(_ connection: Connection, rooms: [String], to writer: FrameWriter) async throws {
        struct Following {
            let room: String
            let subscription: UInt64
            /// Whether the subscription's first progress is out.
            var announced = false
        }
        // A session that is closing gets its error and close, not the rooms' history.
        guard !connection.session.withLock(\.isClosed) else { return }
        var seen: Set<String> = []
        var following = rooms.compactMap { room -> Following? in
            guard seen.insert(room).inserted, let start = hub.catchUpPosition(connection, room: room) else {
                return nil
            }
            return Following(room: room, subscription: start.subscription)
        }
        metrics.catchUps.increment(by: Int64(following.count))
        while !following.isEmpty, !connection.session.withLock(\.isClosed) {
            // Rooms unsubscribed, subscribed again or gone live meanwhile are no longer this catch-up's.
            var requests: [PackLog.CatchUpRequest] = []
            following = following.filter { room in
                guard let position = hub.catchUpPosition(connection, room: room.room),
                    position.subscription == room.subscription
                else { return false }
                requests.append(.init(room: room.room, after: position.sent, withProgress: !room.announced))
                return true
            }
            guard !requests.isEmpty else { return }
            var reads: [PackLog.CatchUpRead]
            do {
                reads = try await log.catchUp(
                    requests,
                    maximumBytes: limits.catchUpFrameBytes,
                    allocator: ByteBufferAllocator()
                )
            } catch {
                // What was sent stands; nothing more is, and the client catches up again after reconnecting.
                connection.logger.warning("catch-up read failed: \(error)")
                refuseUnreadable(connection)
                return
            }
            var messages: [ByteBuffer] = []
            var waiting: [Following] = []
            for (index, room) in following.enumerated() {
                guard index < reads.count else {
                    waiting.append(room)
                    continue
                }
                if let progress = reads[index].progress {
                    let after = requests[index].after
                    messages.append(
                        Self.encoded(
                            .progress(
                                room: room.room,
                                head: progress.head,
                                bytesBehind: progress.bytesAfter,
                                packsBehind: progress.head &- min(after, progress.head)
                            )
                        )
                    )
                }
                // Moved out of the read, so its buffer has one owner and finishing it copies no pack.
                if var frame = reads[index].frame.take(), let last = frame.last {
                    let head = max(hub.head(of: room.room) ?? 0, last)
                    messages.append(frame.finish(head: head))
                    hub.advance(connection, room: room.room, subscription: room.subscription, to: last)
                }
                if let head = hub.goLive(connection, room: room.room, subscription: room.subscription) {
                    messages.append(
                        Self.encoded(.progress(room: room.room, head: head, bytesBehind: 0, packsBehind: 0))
                    )
                } else {
                    var room = room
                    room.announced = true
                    waiting.append(room)
                }
            }
            try await send(messages, for: connection, to: writer)
            following = waiting
        }
    }

    static func encoded(_ message: ServerMessage) -> ByteBuffer {
        ByteBuffer(bytes: SyncCodec.encode(message))
    }
}
