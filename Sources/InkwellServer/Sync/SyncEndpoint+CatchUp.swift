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
            /// The snapshot it was rebased on, whose parts it has.
            var skipping: SnapshotID?
            /// The position of that snapshot's last part: once nothing else is left before it, the follower
            /// holds everything through it.
            var partsThrough: UInt64 = 0
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
        for index in following.indices {
            switch try await rebase(
                connection,
                room: following[index].room,
                subscription: following[index].subscription,
                to: writer
            ) {
            case .unneeded: break
            case .rebased(let snapshot, let partsThrough):
                following[index].skipping = snapshot
                following[index].partsThrough = partsThrough
            case .ended: following[index].skipping = nil
            }
        }
        while !following.isEmpty, !connection.session.withLock(\.isClosed) {
            // Rooms unsubscribed, subscribed again or gone live meanwhile are no longer this catch-up's.
            var requests: [PackLog.CatchUpRequest] = []
            following = following.filter { room in
                guard let position = hub.catchUpPosition(connection, room: room.room),
                    position.subscription == room.subscription
                else { return false }
                requests.append(
                    .init(
                        room: room.room,
                        after: position.sent,
                        withProgress: !room.announced,
                        skipping: room.skipping
                    )
                )
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
                } else if room.partsThrough > requests[index].after {
                    // Nothing but the snapshot's parts, which the rebase sent, is left through its last part:
                    // any pack committed since lies after it. Without this, a room whose newest positions are
                    // the parts would never go live.
                    hub.advance(connection, room: room.room, subscription: room.subscription, to: room.partsThrough)
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

    enum Rebase {
        /// The follower stands at or after the room's floor: its packs are all there.
        case unneeded
        /// The follower was sent this snapshot's parts, the last at `partsThrough`, and stands at the
        /// position it stands for.
        case rebased(SnapshotID, partsThrough: UInt64)
        /// The follower cannot take a snapshot, or the log could not be read: its subscription ended.
        case ended
    }

    /// A follower that stands before the packs the room still keeps is sent the snapshot that stands for
    /// them, as `rebase` frames of at most about ``ServerLimits/catchUpFrameBytes`` (one part at least),
    /// and then follows from the position it stands for. A client of protocol 3 cannot take a snapshot:
    /// it is told so, and the room is not followed.
    private func rebase(
        _ connection: Connection,
        room: String,
        subscription: UInt64,
        to writer: FrameWriter
    ) async throws -> Rebase {
        guard let position = hub.catchUpPosition(connection, room: room), position.subscription == subscription else {
            return .unneeded
        }
        let floor: PackLog.Floor?
        let parts: [StoredPack]
        do {
            floor = try await log.floor(room: room)
            guard let floor, position.sent < floor.position else { return .unneeded }
            parts = try await log.snapshotParts(room: room, snapshot: floor.snapshot)
        } catch {
            connection.logger.warning("rebase read failed: \(error)")
            refuseUnreadable(connection)
            return .ended
        }
        guard let floor else { return .unneeded }
        guard connection.session.withLock(\.protocolVersion) >= 4 else {
            perform(connection.session.withLock { $0.historyCompacted(room: room) }, for: connection)
            return .ended
        }
        let head = max(hub.head(of: room) ?? 0, parts.map(\.serverSeq).max() ?? 0)
        var frames: [ByteBuffer] = []
        var batch: [StoredPack] = []
        var size = 0
        for part in parts {
            if !batch.isEmpty, size + part.bytes.count > limits.catchUpFrameBytes {
                frames.append(Self.encoded(.rebase(room: room, parts: batch, position: floor.covers, head: head)))
                batch = []
                size = 0
            }
            batch.append(part)
            size += part.bytes.count
        }
        if !batch.isEmpty {
            frames.append(Self.encoded(.rebase(room: room, parts: batch, position: floor.covers, head: head)))
        }
        connection.logger.info(
            "rebased on a snapshot",
            metadata: [
                "room": "\(room)", "from": "\(position.sent)", "to": "\(floor.covers)", "parts": "\(parts.count)",
            ]
        )
        try await send(frames, for: connection, to: writer)
        hub.advance(connection, room: room, subscription: subscription, to: floor.covers)
        return .rebased(floor.snapshot, partsThrough: parts.map(\.serverSeq).max() ?? floor.covers)
    }

    static func encoded(_ message: ServerMessage) -> ByteBuffer {
        ByteBuffer(bytes: SyncCodec.encode(message))
    }
}
