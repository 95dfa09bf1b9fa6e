package import InkwellStore
package import InkwellSync
package import InkwellWire

/// The client side of the sync protocol, as a state machine: connection events, server frames and store
/// results go in, actions come out. It does no I/O, so every rule is tested without a socket.
///
/// It keeps, across reconnects, each joined room's ``RoomCursor`` and every pack pushed but not yet
/// acknowledged; on each welcome it subscribes every room from its watermark and pushes those packs
/// again, byte for byte, before planning new ones.
package struct ClientSession: Sendable {
    /// What the I/O shell must do, in order.
    package enum Action: Hashable, Sendable {
        case send(ClientMessage)
        /// Store the room's watermark (``Store/setWatermark(room:to:)``).
        case persistWatermark(room: String, position: UInt64)
        /// The server holds these changes durably, the pack at `position` of `room`: take them off the outbox,
        /// then tell ``acknowledgementStored(room:position:)``.
        case acknowledge([ChangeID], room: String, position: UInt64)
        /// Read up to `limit` queued changes, oldest first, and hand them to ``plan(outbox:keys:)``.
        case readOutbox(limit: Int)
        /// Hand presence from another device to the app.
        case deliver(Presence)
        /// Close this connection and reconnect after the backoff.
        case disconnect(reason: String)
        /// Close, and do not reconnect: only a newer app can help.
        case fail(SyncClientError)
        /// Queued changes that cannot be pushed (a room name the protocol cannot carry, or a replica
        /// this store holds no key for); they stay queued.
        case unsendable([ChangeID])
        /// The server's wall clock read `milliseconds` when it welcomed this connection: stamp by it
        /// when the local clock runs ahead.
        case learnServerTime(milliseconds: UInt64)
        /// The server said what this device may do in `room` (the answer to a subscription, a
        /// registration or a rotation).
        case granted(room: String, rights: Rights, guarded: Bool)
        /// The server refused a request for `room`: no such room, a link that no longer works, an id
        /// taken, or a push to a full room. Its changes stay queued.
        case refused(room: String, code: UInt32, message: String)
    }

    package enum Phase: Hashable, Sendable {
        case offline
        /// Opening a connection.
        case connecting
        /// Connected, `hello` sent.
        case awaitingWelcome
        case open
        /// The server refused the protocol version; terminal.
        case failed
    }

    /// Limits of what the session pushes.
    package struct Configuration: Hashable, Sendable {
        package var device: ReplicaID
        package var agent: String
        package var limits: OutboxPlanner.Limits
        /// Packs pushed and not yet acknowledged, at most: bounds memory, and how much a lost
        /// connection makes the client push again.
        package var maximumPacksInFlight: Int

        package init(
            device: ReplicaID,
            agent: String = "inkwell-swift/1",
            limits: OutboxPlanner.Limits = .init(),
            maximumPacksInFlight: Int = 8
        ) {
            self.device = device
            self.agent = agent
            self.limits = limits
            self.maximumPacksInFlight = max(maximumPacksInFlight, 1)
        }
    }

    /// A pushed pack waiting for its ack.
    package struct InFlightPack: Hashable, Sendable {
        package let room: String
        package let id: PackID
        package let changes: [ChangeID]
        package let bytes: [UInt8]
    }

    /// A joined room: its cursor, and what this connection has learnt about it.
    package struct Room: Hashable, Sendable {
        package var cursor: RoomCursor
        /// Pack bytes the server said the room is behind, less those received since.
        package var bytesBehind: UInt64 = 0
        /// Whether the server said on this connection that nothing is left to catch up.
        package var caughtUp = false
        /// What opens the room (nil: an open room).
        package var credentials: RoomCredentials?
        /// What the server said this connection may do here; nil until it has. Nothing is pushed before.
        package var rights: Rights?
        /// Why the server refused this connection's subscription, or its pushes (a full room), if it did.
        package var refusal: Refusal?

        /// Whether this connection pushes to the room: granted edit rights, and not refused since.
        var takesPushes: Bool { rights?.mayEdit == true && refusal == nil }
    }

    /// A room error: its code (``ErrorCode``) and the server's words.
    package struct Refusal: Hashable, Sendable {
        package var code: UInt32
        package var message: String
    }

    package let configuration: Configuration
    private let planner: OutboxPlanner
    package private(set) var phase: Phase = .offline
    package private(set) var rooms: [String: Room] = [:]
    /// In push order.
    package private(set) var inFlight: [InFlightPack] = []
    private var inFlightChanges: Set<ChangeID> = []
    private var reportedUnsendable: Set<ChangeID> = []
    /// The message of a fatal error frame: the close that follows carries only a code.
    private var fatalMessage: String?

    package init(configuration: Configuration) {
        self.configuration = configuration
        self.planner = OutboxPlanner(limits: configuration.limits)
    }

    // MARK: Rooms

    /// Follows `room` from `watermark`, the position stored for it, with what opens it (nil: an open room).
    package mutating func join(_ room: String, watermark: UInt64, credentials: RoomCredentials? = nil) -> [Action] {
        guard rooms[room] == nil else { return [] }
        rooms[room] = Room(cursor: RoomCursor(watermark: watermark), credentials: credentials)
        return phase == .open ? requests(for: room) : []
    }

    /// Replaces what opens a joined room and asks again, e.g. after its admin rotated a link (nil: an open room).
    package mutating func update(_ room: String, credentials: RoomCredentials?) -> [Action] {
        guard rooms[room] != nil else { return [] }
        rooms[room]!.credentials = credentials
        rooms[room]!.refusal = nil
        return phase == .open ? requests(for: room) : []
    }

    /// Asks the room's admin capability's server to replace its edit or view capability with these.
    package func rotate(_ room: String, edit: Capability?, view: Capability?) -> [Action] {
        guard phase == .open, let admin = rooms[room]?.credentials?.admin else { return [] }
        return [
            .send(
                .rotateCapability(room: room, admin: admin.text, editHash: edit?.hash ?? [], viewHash: view?.hash ?? [])
            )
        ]
    }

    /// What a connection sends for a room: registration first when this device made it (so a board made
    /// offline is registered on its next connection), then the subscription with its capability.
    private func requests(for room: String) -> [Action] {
        guard let state = rooms[room] else { return [] }
        var actions: [Action] = []
        if let registration = state.credentials?.registration {
            actions.append(
                .send(
                    .createRoom(
                        room: room,
                        adminHash: registration.admin,
                        editHash: registration.edit,
                        viewHash: registration.view
                    )
                )
            )
        }
        actions.append(
            .send(
                .subscribe(
                    room: room,
                    after: state.cursor.watermark,
                    capability: state.credentials?.capability.text ?? ""
                )
            )
        )
        return actions
    }

    package mutating func leave(_ room: String) -> [Action] {
        guard rooms.removeValue(forKey: room) != nil else { return [] }
        return phase == .open ? [.send(.unsubscribe(room: room))] : []
    }

    // MARK: Connection

    package mutating func connecting() {
        guard phase != .failed else { return }
        phase = .connecting
    }

    /// The WebSocket is open: say hello.
    package mutating func connected() -> [Action] {
        guard phase != .failed else { return [] }
        phase = .awaitingWelcome
        fatalMessage = nil
        return [
            .send(
                .hello(
                    protocolVersion: SyncProtocol.version,
                    minimumProtocolVersion: SyncProtocol.minimumVersion,
                    device: configuration.device,
                    agent: configuration.agent
                )
            )
        ]
    }

    /// The connection ended with `closeCode` (nil when it broke without a close frame).
    package mutating func disconnected(closeCode: UInt16?, reason: String?) -> [Action] {
        guard phase != .failed else { return [] }
        for room in rooms.keys {
            rooms[room]!.caughtUp = false
            rooms[room]!.bytesBehind = 0
            rooms[room]!.rights = nil
        }
        if closeCode == CloseCode.unsupportedVersion.rawValue {
            return fail(fatalMessage ?? reason ?? "unsupported protocol version")
        }
        phase = .offline
        return []
    }

    // MARK: Frames

    /// Handles a frame other than `packs`: the shell stores packs first and reports them to
    /// ``stored(room:positions:packBytes:head:)``.
    package mutating func received(_ message: ServerMessage) -> [Action] {
        switch message {
        case .welcome(let version, _, _, let serverTime):
            guard phase == .awaitingWelcome else { return [.disconnect(reason: "welcome out of order")] }
            guard (SyncProtocol.minimumVersion...SyncProtocol.version).contains(version) else {
                return fail("the server chose protocol version \(version), which this app does not speak")
            }
            return [.learnServerTime(milliseconds: serverTime)] + welcomed()
        case .ack(let room, let pack, let serverSeq):
            guard phase == .open else { return [.disconnect(reason: "ack before welcome")] }
            return acknowledged(room: room, pack: pack, serverSeq: serverSeq)
        case .packs, .rebase:
            return [.disconnect(reason: "packs must be stored before they are reported")]
        case .presence(let presence):
            return deliver([presence])
        case .presences(let presences):
            return deliver(presences)
        case .progress(let room, let head, let bytesBehind, let packsBehind):
            guard phase == .open, rooms[room] != nil else { return [] }
            rooms[room]!.cursor.learn(head: head)
            rooms[room]!.bytesBehind = bytesBehind
            if bytesBehind == 0 && packsBehind == 0 { rooms[room]!.caughtUp = true }
            return []
        case .access(let room, let rights, let guarded):
            guard phase == .open, rooms[room] != nil else { return [] }
            let first = rooms[room]!.rights == nil
            rooms[room]!.rights = rights
            rooms[room]!.refusal = nil
            var actions: [Action] = [.granted(room: room, rights: rights, guarded: guarded)]
            // Pushed again byte for byte once the room takes pushes on this connection.
            if first, rights.mayEdit {
                actions += inFlight.filter { $0.room == room }.map { .send(.push(room: $0.room, pack: $0.bytes)) }
            }
            return actions + outboxChanged()
        case .error(let code, let message, let fatal, let room):
            if code == ErrorCode.unsupportedVersion.rawValue { return fail(message) }
            if fatal {
                fatalMessage = message
                return []
            }
            if Self.roomRefusals.contains(code), rooms[room] != nil {
                if code != ErrorCode.roomExists.rawValue {
                    rooms[room]!.refusal = Refusal(code: code, message: message)
                }
                return [.refused(room: room, code: code, message: message)]
            }
            // The room is full: its packs in flight go back to the outbox, where they stay, and this
            // connection pushes no more to it. The next connection tries again.
            if code == ErrorCode.roomFull.rawValue, rooms[room] != nil {
                rooms[room]!.refusal = Refusal(code: code, message: message)
                let returned = inFlight.filter { $0.room == room }
                inFlight.removeAll { $0.room == room }
                inFlightChanges.subtract(returned.flatMap(\.changes))
                return [.refused(room: room, code: code, message: message)] + outboxChanged()
            }
            // The push was not stored: reconnecting after the backoff pushes every unacknowledged pack again.
            if code == ErrorCode.storageFailed.rawValue {
                return [.disconnect(reason: "the server could not store a push")]
            }
            // A change stamped ahead of the server's clock: pushed again after the backoff, by when the
            // server's clock may have caught up (and the clock stamps new changes by the server's).
            if code == ErrorCode.stampAhead.rawValue {
                return [.disconnect(reason: "the server refused a change stamped ahead of its clock")]
            }
            return []
        }
    }

    /// A snapshot standing for every position through `position` was taken in place of the room's early
    /// packs, and its parts, at `parts`, are held: the room's watermark moves to it.
    package mutating func rebased(room: String, position: UInt64, parts: [UInt64], head: UInt64) -> [Action] {
        guard phase == .open, var state = rooms[room] else { return [] }
        var advanced = state.cursor.rebase(to: position)
        for part in parts where state.cursor.see(part) { advanced = true }
        state.cursor.learn(head: head)
        rooms[room] = state
        return advanced ? [.persistWatermark(room: room, position: state.cursor.watermark)] : []
    }

    /// The changes of the packs at `positions` of `room` are stored (or set aside, or found unreadable
    /// for good): they count as seen. `packBytes` is their size on the wire, for the download progress.
    package mutating func stored(room: String, positions: [UInt64], packBytes: UInt64, head: UInt64) -> [Action] {
        guard phase == .open, var state = rooms[room] else { return [] }
        var advanced = false
        for position in positions where state.cursor.see(position) { advanced = true }
        state.cursor.learn(head: head)
        state.bytesBehind = state.bytesBehind > packBytes ? state.bytesBehind - packBytes : 0
        rooms[room] = state
        return advanced ? [.persistWatermark(room: room, position: state.cursor.watermark)] : []
    }

    // MARK: Pushing

    /// New changes were queued: plan packs for them if there is room in flight.
    package func outboxChanged() -> [Action] {
        guard phase == .open, inFlight.count < configuration.maximumPacksInFlight else { return [] }
        let free = configuration.maximumPacksInFlight - inFlight.count
        return [.readOutbox(limit: inFlightChanges.count + free * configuration.limits.maximumChanges)]
    }

    /// Pushes packs for the queued changes not already in flight, each signed by the key of its
    /// changes' replica in `keys`.
    ///
    /// - Complexity: O(q) for q queued changes, plus encoding (and deflating) and signing the new packs.
    package mutating func plan(outbox: [StoredChange], keys: [ReplicaID: AuthorKey]) -> [Action] {
        guard phase == .open else { return [] }
        let free = configuration.maximumPacksInFlight - inFlight.count
        // Changes no key here can sign wait, reported once, without taking a place in flight.
        // Only rooms the server let this connection edit: the others wait for their access.
        let waiting = outbox.filter { !inFlightChanges.contains($0.id) && rooms[$0.room]?.takesPushes == true }
        let signable = waiting.filter { keys[$0.id.replica] != nil }
        let keyless = waiting.filter { keys[$0.id.replica] == nil }
        let plan = planner.plan(signable, maximumPacks: free)
        var actions: [Action] = []
        let unsendable = (plan.unsendable + keyless).map(\.id).filter { reportedUnsendable.insert($0).inserted }
        if !unsendable.isEmpty { actions.append(.unsendable(unsendable)) }
        for planned in plan.packs {
            // An encrypted room's packs are sealed with its key before they are signed.
            let bytes = PackCodec.encode(
                planned.pack,
                signedBy: keys[planned.author]!,
                sealedWith: rooms[planned.room]?.credentials?.key
            )
            let pack = InFlightPack(
                room: planned.room,
                id: PackID(of: bytes),
                changes: planned.changes.map(\.id),
                bytes: bytes
            )
            inFlight.append(pack)
            inFlightChanges.formUnion(pack.changes)
            actions.append(.send(.push(room: pack.room, pack: pack.bytes)))
        }
        return actions
    }

    // MARK: Presence

    /// Presence for a joined room is sent while connected and dropped otherwise: it is ephemeral. In an
    /// encrypted room it is sealed with the room's key.
    package func presence(_ presence: Presence) -> [Action] {
        guard phase == .open, let room = rooms[presence.room] else { return [] }
        guard let key = room.credentials?.key else { return [.send(.presence(presence))] }
        return [.send(.presence(presence.sealed(with: key)))]
    }

    // MARK: Progress

    /// The progress to show, given the bytes waiting in the outbox.
    package func progress(outboxBytes: Int) -> SyncProgress {
        let state: SyncProgress.State
        switch phase {
        case .offline, .failed: state = .offline
        case .connecting, .awaitingWelcome: state = .connecting
        case .open:
            // A refused room is reported on its own (``Action/refused(room:code:message:)``), not as syncing.
            let roomsDone = rooms.values.allSatisfy { ($0.caughtUp && $0.cursor.isAtHead) || $0.refusal != nil }
            state = roomsDone && outboxBytes == 0 && inFlight.isEmpty ? .synced : .syncing
        }
        // Each room's figure is the server's word: summed, they stop at the largest.
        let download = phase == .open ? rooms.values.lazy.map(\.bytesBehind).saturatingSum() : 0
        return SyncProgress(state: state, bytesToUpload: outboxBytes, bytesToDownload: download)
    }

    package var isFailed: Bool { phase == .failed }

    // MARK: Internals

    /// Presence from others in rooms this session follows; its own and that of other rooms is dropped.
    /// In an encrypted room it is opened with the room's key, and presence that is not sealed with it
    /// (which the server could have made) is dropped.
    private func deliver(_ presences: [Presence]) -> [Action] {
        guard phase == .open else { return [] }
        return presences.compactMap { presence in
            guard let room = rooms[presence.room], presence.device != configuration.device else { return nil }
            guard let key = room.credentials?.key else { return presence.sealed.isEmpty ? .deliver(presence) : nil }
            return (try? presence.opened(with: key)).map { .deliver($0) }
        }
    }

    /// The room errors that answer a request for one room and end nothing else.
    static let roomRefusals: Set<UInt32> = [
        ErrorCode.noSuchRoom.rawValue, ErrorCode.notAllowed.rawValue, ErrorCode.roomExists.rawValue,
    ]

    /// Subscribes every room; packs in flight are pushed again, and new ones planned, room by room as
    /// the server grants each (``received(_:)``, `access`).
    private mutating func welcomed() -> [Action] {
        phase = .open
        for room in rooms.keys {
            rooms[room]!.rights = nil
            rooms[room]!.refusal = nil
        }
        return rooms.keys.sorted().flatMap { requests(for: $0) }
    }

    private mutating func acknowledged(room: String, pack: PackID, serverSeq: UInt64) -> [Action] {
        // A repeated ack (the pack was pushed again) has nothing left in flight.
        guard let index = inFlight.firstIndex(where: { $0.id == pack && $0.room == room }) else {
            return see(serverSeq, in: room)
        }
        let acknowledged = inFlight.remove(at: index)
        inFlightChanges.subtract(acknowledged.changes)
        // The cursor passes the pack only once its changes are off the outbox: a store that fails, or a
        // process that stops, in between must not leave a cursor (kept across reconnections) or a watermark
        // past the pack while its changes still read as unacknowledged. The next subscription would start
        // after it, the pack would never come back, and a snapshot made next would stand for its position
        // without them.
        return [.acknowledge(acknowledged.changes, room: room, position: serverSeq)]
    }

    /// The changes of the pack acknowledged at `position` are off the outbox: the cursor passes it.
    package mutating func acknowledgementStored(room: String, position: UInt64) -> [Action] {
        // After the acknowledgement, so the outbox read no longer holds the acknowledged changes.
        see(position, in: room) + outboxChanged()
    }

    private mutating func see(_ position: UInt64, in room: String) -> [Action] {
        guard rooms[room]?.cursor.see(position) == true else { return [] }
        return [.persistWatermark(room: room, position: rooms[room]!.cursor.watermark)]
    }

    private mutating func fail(_ message: String) -> [Action] {
        phase = .failed
        return [.fail(.unsupportedVersion(message))]
    }
}
