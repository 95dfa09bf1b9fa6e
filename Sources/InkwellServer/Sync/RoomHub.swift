import InkwellSync
import InkwellWire
import Logging
import NIOCore
import Prometheus
import Synchronization

/// Who follows which room, and where each follower stands: the server's fan-out.
///
/// A follower is either catching up (its writer reads the room's log and sends coalesced frames) or
/// live (each commit is queued to it as it happens). The switch to live, the fan-out of a commit and a
/// room's head all change under one lock, so a follower never misses or repeats a position: it goes
/// live only when what it was sent reaches the head, and from then on it is sent exactly the next
/// position. A live follower whose queue is over budget drops back to catching up, so a slow reader
/// never stalls a room or grows the server's memory.
///
/// A node of a cluster is also handed the packs other nodes committed, read from the shared log once for
/// all its followers (``fanOutRemote(room:packs:)``), and the heads it could not read
/// (``remoteHeads(_:)``), which send the rooms' live followers back to catching up. A local commit may
/// come after a position this node has not yet read; its live followers catch up rather than skip it.
final class RoomHub: Sendable {
    enum Mode: Sendable {
        case catchingUp
        case live
    }

    struct Member: Sendable {
        let connection: Connection
        var mode: Mode
        /// The last position sent to this member (as a pack or, for its own pushes, an ack).
        var sent: UInt64
        /// Distinguishes subscriptions, so a catch-up of an earlier one cannot move a later one.
        let subscription: UInt64
    }

    struct Room: Sendable {
        var head: UInt64
        var members: [UInt64: Member] = [:]
    }

    /// One committed push, as the fan-out needs it.
    struct Committed: Sendable {
        let room: String
        let bytes: [UInt8]
        let position: UInt64
        /// The connection it came on here; nil for a pack another node committed (read from the log).
        let pusher: Connection?
        /// The pusher's answer, as its session gave it (``ServerSession/stored(room:pack:serverSeq:)``):
        /// nil when the session is closed.
        let ack: ByteBuffer?
    }

    private struct State: Sendable {
        var rooms: [String: Room] = [:]
        /// The rooms each connection follows, so removing one touches only those.
        var followed: [UInt64: Set<String>] = [:]
        var nextSubscription: UInt64 = 1

        mutating func removeMember(_ connection: UInt64, from name: String) -> Bool {
            guard rooms[name]?.members.removeValue(forKey: connection) != nil else { return false }
            if rooms[name]!.members.isEmpty { rooms[name] = nil }
            followed[connection]?.remove(name)
            if followed[connection]?.isEmpty == true { followed[connection] = nil }
            return true
        }
    }

    private let state = Mutex(State())
    let metrics: ServerMetrics
    /// Times fan-outs, for ``ServerMetrics/fanoutSeconds``.
    let timekeeper: any Timekeeper
    /// Whether other nodes commit to the same log: then a commit may reach a follower past positions it
    /// has not been sent, which on a lone server only a bug could cause.
    let clustered: Bool
    /// A bug put in on purpose by the simulation (``InjectedServerBug/skipLiveFanout``); never otherwise.
    let injectedBug: InjectedServerBug?

    init(
        metrics: ServerMetrics,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        clustered: Bool = false,
        injectedBug: InjectedServerBug? = nil
    ) {
        self.metrics = metrics
        self.timekeeper = timekeeper
        self.clustered = clustered
        self.injectedBug = injectedBug
    }

    /// Makes `connection` follow `room` from `after`, catching up first. `head` is the room's head as
    /// read from the log before the call; it is used only when the room has no followers yet. No I/O
    /// happens under the lock: a lock held across a database read lets a full reader pool and a blocked
    /// cooperative thread wait on each other.
    ///
    /// A head that is stale by the time the room is made is safe: it is never above the log's, and a
    /// pack committed after it was read either was fanned out before the room existed (then it is in
    /// the log the catch-up reads) or raises the room's head here (then the follower goes live only
    /// after its catch-up reaches it).
    ///
    /// - Returns: the position the catch-up starts from (`after`, or the head if `after` lies beyond it).
    @discardableResult
    func subscribe(_ connection: Connection, room: String, after: UInt64, head: UInt64) -> UInt64 {
        let start = state.withLock { state in
            if state.rooms[room] == nil { state.rooms[room] = Room(head: head) }
            let subscription = state.nextSubscription
            state.nextSubscription += 1
            // A follower ahead of the log (say, of a server restored from a backup) starts at the head,
            // so it is sent every later position.
            let start = min(after, state.rooms[room]!.head)
            state.rooms[room]!.members[connection.id] = Member(
                connection: connection,
                mode: .catchingUp,
                sent: start,
                subscription: subscription
            )
            state.followed[connection.id, default: []].insert(room)
            return start
        }
        connection.push(.catchUp(room: room))
        return start
    }

    /// Stops `connection` following `room`.
    ///
    /// - Returns: whether it was following it.
    @discardableResult
    func unsubscribe(_ connection: Connection, room: String) -> Bool {
        state.withLock { $0.removeMember(connection.id, from: room) }
    }

    /// Removes `connection` from every room it follows, touching only those.
    ///
    /// - Returns: the rooms it followed.
    func remove(_ connection: Connection) -> [String] {
        state.withLock { state in
            let rooms = state.followed[connection.id] ?? []
            for room in rooms { _ = state.removeMember(connection.id, from: room) }
            assert(state.followed[connection.id] == nil, "a removed connection still follows rooms")
            return Array(rooms)
        }
    }

    /// How many rooms have followers, and how many connections follow any: for tests of the index.
    var counts: (rooms: Int, followers: Int) { state.withLock { ($0.rooms.count, $0.followed.count) } }

    /// Where a catch-up of `room` for `connection` stands, or nil if there is nothing to catch up.
    func catchUpPosition(_ connection: Connection, room: String) -> (sent: UInt64, subscription: UInt64)? {
        state.withLock { state in
            guard let member = state.rooms[room]?.members[connection.id], member.mode == .catchingUp else {
                return nil
            }
            return (member.sent, member.subscription)
        }
    }

    /// A catch-up frame ending at `position` was written.
    func advance(_ connection: Connection, room: String, subscription: UInt64, to position: UInt64) {
        state.withLock { state in
            guard let member = state.rooms[room]?.members[connection.id], member.subscription == subscription,
                member.mode == .catchingUp
            else { return }
            state.rooms[room]!.members[connection.id]!.sent = max(member.sent, position)
        }
    }

    /// Makes the follower live if what it was sent reaches the room's head.
    ///
    /// - Returns: the head if it went live, nil if newer packs were committed meanwhile (read them first).
    func goLive(_ connection: Connection, room: String, subscription: UInt64) -> UInt64? {
        state.withLock { state in
            guard let followed = state.rooms[room], let member = followed.members[connection.id],
                member.subscription == subscription, member.mode == .catchingUp, member.sent >= followed.head
            else { return nil }
            state.rooms[room]?.members[connection.id]?.mode = .live
            return followed.head
        }
    }

    /// The connections following `room` now.
    func members(of room: String) -> [Connection] {
        state.withLock { state in state.rooms[room].map { $0.members.values.map(\.connection) } ?? [] }
    }

    /// The room's newest committed position, if anyone follows it.
    func head(of room: String) -> UInt64? {
        state.withLock { $0.rooms[room]?.head }
    }

    /// Queues each committed push's ack (made by the pusher's session) and sends the push to the room's
    /// live followers, in commit order: a pusher that follows the room hears of every position in
    /// order, its own as acks.
    func fanOut(_ batch: [Committed]) {
        let started = timekeeper.now
        // Encoded once per pack, shared by every follower's queue.
        var frames: [Int: ByteBuffer] = [:]
        var fallbacks: [(Connection, String)] = []
        // Drains are started once the lock is released: starting one wakes an event loop.
        var drains: [(Connection, OutboundQueue.Admission)] = []
        state.withLock { state in
            for (index, item) in batch.enumerated() {
                if let ack = item.ack, let pusher = item.pusher {
                    let admission = pusher.queue.push(.frame(ack))
                    if admission.startsDrain || admission == .overflowed { drains.append((pusher, admission)) }
                }
                guard var room = state.rooms[item.room] else { continue }
                room.head = max(room.head, item.position)
                for (id, member) in room.members where member.mode == .live && item.position > member.sent {
                    guard item.position == member.sent + 1 else {
                        // Not the next position: another node's commit this one has not read yet, or on a
                        // lone server a bug. Catching up repairs either.
                        assert(clustered, "live follower at \(member.sent) offered \(item.position)")
                        room.members[id]!.mode = .catchingUp
                        fallbacks.append((member.connection, item.room))
                        continue
                    }
                    if member.connection === item.pusher || injectedBug == .skipLiveFanout {
                        room.members[id]!.sent = item.position
                        continue
                    }
                    let frame =
                        frames[index]
                        ?? ByteBuffer(
                            bytes: SyncCodec.encode(
                                .packs(
                                    room: item.room,
                                    packs: [StoredPack(serverSeq: item.position, bytes: item.bytes)],
                                    head: item.position
                                )
                            )
                        )
                    frames[index] = frame
                    let admission = member.connection.queue.offer(frame)
                    if admission.startsDrain { drains.append((member.connection, admission)) }
                    if admission.accepted {
                        room.members[id]!.sent = item.position
                    } else {
                        room.members[id]!.mode = .catchingUp
                        fallbacks.append((member.connection, item.room))
                    }
                }
                state.rooms[item.room] = room
            }
        }
        for (connection, admission) in drains { connection.start(admission) }
        for (connection, room) in fallbacks {
            connection.push(.catchUp(room: room))
            connection.logger.info("slow reader: falling back to catch-up")
            metrics.slowSubscriberFallbacks.increment()
        }
        metrics.fanoutSeconds.record(timekeeper.now - started)
    }

    /// The rooms someone on this node follows: those whose heads it must learn from other nodes.
    var followedRooms: [String] { state.withLock { Array($0.rooms.keys) } }

    /// Sends packs other nodes committed, read from the log once for every follower here, to the room's
    /// live followers as a local commit's are: each follower is sent exactly its next position, and one
    /// that is not at the position before (it missed one) catches up from the log instead.
    func fanOutRemote(room: String, packs: [StoredPack]) {
        fanOut(
            packs.map { pack in
                Committed(room: room, bytes: pack.bytes, position: pack.serverSeq, pusher: nil, ack: nil)
            }
        )
    }

    /// Raises rooms' heads to what other nodes committed, and sends their live followers that were not sent
    /// those positions back to catching up: the packs are read from the log, never from the message that
    /// told of them. A head no higher than the room's changes nothing, so a repeated or stale one is harmless.
    func remoteHeads(_ heads: [String: UInt64]) {
        var behind: [(Connection, String)] = []
        state.withLock { state in
            for (name, head) in heads {
                guard var room = state.rooms[name], head > room.head else { continue }
                room.head = head
                for (id, member) in room.members where member.mode == .live && member.sent < head {
                    room.members[id]!.mode = .catchingUp
                    behind.append((member.connection, name))
                }
                state.rooms[name] = room
            }
        }
        for (connection, room) in behind { connection.push(.catchUp(room: room)) }
    }

    /// Sends presence to the room's other followers; a follower with a full queue misses it, as
    /// ephemeral state may be lost, and one that has not yet been sent the sender's previous presence
    /// gets only this newer one.
    func relay(_ presence: Presence, from sender: Connection) {
        relay(
            ByteBuffer(bytes: SyncCodec.encodePresence(presence)),
            room: presence.room,
            key: OutboundQueue.PresenceKey(sender: sender.id, room: presence.room),
            excluding: sender.id
        )
    }

    /// Sends presence a member on another node sent to every follower of the room here, as
    /// ``relay(_:from:)`` does: only the newest of each device waits in a queue.
    func relayRemote(_ presence: Presence) {
        // A key no local connection has (their ids are small counters): the device's, with the top bit set.
        let sender = (presence.device.high ^ presence.device.low.byteSwapped) | (1 << 63)
        relay(
            ByteBuffer(bytes: SyncCodec.encodePresence(presence)),
            room: presence.room,
            key: OutboundQueue.PresenceKey(sender: sender, room: presence.room),
            excluding: nil
        )
    }

    private func relay(_ frame: ByteBuffer, room name: String, key: OutboundQueue.PresenceKey, excluding: UInt64?) {
        var drains: [(Connection, OutboundQueue.Admission)] = []
        let (sent, dropped) = state.withLock { state -> (Int, Int) in
            guard let room = state.rooms[name] else { return (0, 0) }
            var (sent, dropped) = (0, 0)
            for (id, member) in room.members where id != excluding {
                let admission = member.connection.queue.offerPresence(frame, key: key)
                if admission.startsDrain { drains.append((member.connection, admission)) }
                if admission.accepted { sent += 1 } else { dropped += 1 }
            }
            return (sent, dropped)
        }
        // Started once the lock is released: starting a drain wakes an event loop.
        for (connection, admission) in drains { connection.start(admission) }
        if sent > 0 { metrics.presenceRelayed.increment(by: Int64(sent)) }
        if dropped > 0 { metrics.presenceDropped.increment(by: Int64(dropped)) }
    }
}
