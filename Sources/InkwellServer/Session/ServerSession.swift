public import InkwellSync
public import InkwellWire

/// One client connection, as a state machine: frames and storage results go in, actions come out.
///
/// It does no I/O, so every rule of the protocol is tested without a socket: `hello` comes first
/// and settles the version; packs are validated as a relay can (``PackCodec/validate(_:room:maximumBodyBytes:)``:
/// the envelope, the author's signature, the room it was signed for, and for a plain body that it
/// inflates to its declared size and holds only its signer's changes, none stamped further ahead of
/// the server's clock than ``SyncProtocol/maximumStampLeadMilliseconds``; the edits themselves are
/// never interpreted) and acknowledged only once the shell reports them durable; presence is relayed
/// only for rooms the client follows and only as the device it said it is. A bad frame gets an error frame
/// and the documented close code, and after closing the session ignores everything.
public struct ServerSession: Sendable {
    /// What the I/O shell must do.
    public enum Action: Hashable, Sendable {
        case send(ServerMessage)
        case close(CloseCode, reason: String)
        /// Send the room's packs after `after`, coalesced, then follow the room live.
        case catchUp(room: String, after: UInt64)
        case stopFollowing(room: String)
        /// Append the pack to the room's log, idempotently by id (the SHA-256 of `bytes`), then report
        /// ``ServerSession/stored(room:pack:serverSeq:)``. `author` signed it; `snapshot` is what a part of a
        /// room snapshot claims (`nil` for a pack of changes).
        case append(room: String, pack: PackID, bytes: [UInt8], author: ReplicaID, snapshot: SnapshotCover?)
        /// Record that `signer`, an author in the room, checked and holds the snapshot `snapshot`.
        case recordCheck(room: String, snapshot: SnapshotID, signer: ReplicaID)
        /// Send to the room's other members connected now; never store.
        case relay(Presence)
        /// Look up what the room keeps (``RoomAccess``), then report ``ServerSession/authorized(room:after:capability:access:)``.
        case authorize(room: String, after: UInt64, capability: String)
        /// Register a room by its capabilities' hashes, then report ``ServerSession/registered(room:outcome:)``.
        case register(room: String, hashes: RoomAccess.Hashes)
        /// Replace capabilities if `adminHash` is the room's, then report ``ServerSession/rotated(room:outcome:)``.
        case rotate(room: String, adminHash: [UInt8], editHash: [UInt8], viewHash: [UInt8])
        /// Close the room's connections that subscribed with one of these hashes (``ServerSession/revoke(room:hashes:)``).
        case revoke(room: String, hashes: Set<[UInt8]>)
        /// A push to a room the connection does not follow: look the room up, then report
        /// ``ServerSession/pushAuthorized(room:pack:access:)``. Only an open room takes it.
        case authorizePush(room: String, pack: [UInt8])
    }

    /// What a connection holds in a room it follows.
    public struct Membership: Hashable, Sendable {
        public var rights: Rights
        /// The hash of the capability it subscribed with; nil in an open room.
        public var capabilityHash: [UInt8]?
    }

    enum State: Sendable {
        case awaitingHello
        case open(device: ReplicaID, protocolVersion: UInt32)
        case closed
    }

    public let server: ReplicaID
    /// The largest client frame accepted, and the largest inflated pack body.
    public let maximumFrameBytes: Int
    public let maximumPackBodyBytes: Int
    /// The server's clock: welcomes carry it, and pushes stamped too far ahead of it are refused.
    public let wallClock: any WallClock
    private(set) var state: State = .awaitingHello
    /// When the frame being handled arrived: what the push and presence rates are taken at.
    private var now: ContinuousClock.Instant = .now
    /// Rooms this connection follows, and what it may do in each.
    public private(set) var memberships: [String: Membership] = [:]
    /// Rooms asked for and not yet answered: they count toward ``maximumRooms``.
    private var pending: Set<String> = []
    /// Open rooms this connection pushes to without following them (a writer that never reads).
    private var openPushRooms: Set<String> = []
    /// Rooms that refused a push of this connection for being full: they refuse its later pushes too.
    private var roomsRefusedFull: Set<String> = []
    /// Rooms one connection may follow at once.
    public let maximumRooms: Int
    /// Subscriptions refused, rooms made, rotations tried and snapshot checks sent by one connection before
    /// it is closed: a client that guesses names or capabilities, mints rooms or floods checks in a loop,
    /// stops here.
    public let maximumRoomRequests: Int
    private var roomRequests = 0
    /// Checked in this order, each before anything it guards is parsed or inflated: bytes per frame,
    /// then pushes, then presence.
    private var byteRate: RateLimiter
    private var pushRate: RateLimiter
    private var presenceRate: RateLimiter
    let rates: Rates
    /// Presence dropped by ``presenceRate`` so far, for the server's metrics.
    public private(set) var presenceDropped = 0

    /// The rates a connection is held to (see ``ServerLimits``).
    public struct Rates: Hashable, Sendable {
        public var bytesPerSecond: Double
        public var byteBurst: Double
        public var packsPerSecond: Double
        public var presencePerSecond: Double

        public init(
            bytesPerSecond: Double = 16_777_216,
            byteBurst: Double = 67_108_864,
            packsPerSecond: Double = 200,
            presencePerSecond: Double = 60
        ) {
            self.bytesPerSecond = bytesPerSecond
            self.byteBurst = byteBurst
            self.packsPerSecond = packsPerSecond
            self.presencePerSecond = presencePerSecond
        }
    }

    /// Rooms this connection follows.
    public var rooms: Set<String> { Set(memberships.keys) }

    public init(
        server: ReplicaID,
        maximumFrameBytes: Int = SyncProtocol.maximumFrameBytes,
        maximumPackBodyBytes: Int = WireLimits.maximumPackBodyBytes,
        wallClock: any WallClock = SystemWallClock(),
        maximumRooms: Int = 1_000,
        maximumRoomRequests: Int = 256,
        rates: Rates = Rates(),
        now: ContinuousClock.Instant = .now
    ) {
        self.rates = rates
        byteRate = RateLimiter(rate: rates.bytesPerSecond, burst: rates.byteBurst, now: now)
        pushRate = RateLimiter(rate: rates.packsPerSecond, burst: rates.packsPerSecond * 2, now: now)
        presenceRate = RateLimiter(rate: rates.presencePerSecond, burst: rates.presencePerSecond * 2, now: now)
        self.server = server
        self.maximumRooms = maximumRooms
        self.maximumRoomRequests = maximumRoomRequests
        self.wallClock = wallClock
        self.maximumFrameBytes = min(maximumFrameBytes, SyncProtocol.maximumFrameBytes)
        self.maximumPackBodyBytes = min(maximumPackBodyBytes, WireLimits.maximumPackBodyBytes)
    }

    public var isClosed: Bool {
        if case .closed = state { true } else { false }
    }

    /// The device that said hello, once it has.
    public var device: ReplicaID? {
        if case .open(let device, _) = state { device } else { nil }
    }

    /// Handles one received frame, received at `now`.
    public mutating func received(_ frame: [UInt8], at now: ContinuousClock.Instant = .now) -> [Action] {
        guard !isClosed else { return [] }
        guard frame.count <= maximumFrameBytes else {
            return fail(.tooBig, "frame larger than \(maximumFrameBytes) bytes", close: .tooBig)
        }
        guard byteRate.take(Double(frame.count), now: now) else {
            return fail(
                .rateLimited,
                "more than \(Int(rates.bytesPerSecond)) bytes per second",
                close: .policyViolation
            )
        }
        self.now = now
        let message: ClientMessage
        do {
            message = try SyncCodec.decodeClient(frame)
        } catch {
            return fail(.malformedFrame, "malformed frame: \(error)", close: .invalidPayload)
        }
        switch (state, message) {
        case (.awaitingHello, .hello(let version, let minimum, let device, _)):
            return hello(version: version, minimum: minimum, device: device)
        case (.awaitingHello, _):
            return fail(.helloRequired, "the first frame must be hello", close: .protocolError)
        case (.open, .hello):
            return fail(.malformedFrame, "hello was already said", close: .protocolError)
        case (.open, .subscribe(let room, let after, let capability)):
            if memberships[room] == nil, pending.insert(room).inserted {
                guard memberships.count + pending.count <= maximumRooms else {
                    return fail(
                        .tooManyRooms,
                        "more than \(maximumRooms) rooms on one connection",
                        close: .policyViolation
                    )
                }
            }
            return [.authorize(room: room, after: after, capability: capability)]
        case (.open, .unsubscribe(let room)):
            pending.remove(room)
            return memberships.removeValue(forKey: room) == nil ? [] : [.stopFollowing(room: room)]
        case (.open, .push(let room, let pack)):
            if openPushRooms.contains(room) { return push(room: room, pack: pack) }
            guard let membership = memberships[room] else { return [.authorizePush(room: room, pack: pack)] }
            guard membership.rights.mayEdit else { return refuseEditing(room, "push") }
            return push(room: room, pack: pack)
        case (.open, .createRoom(let room, let admin, let edit, let view)):
            if let refusal = countRoomRequest() { return refusal }
            return [.register(room: room, hashes: RoomAccess.Hashes(admin: admin, edit: edit, view: view))]
        case (.open, .rotateCapability(let room, let admin, let edit, let view)):
            if let refusal = countRoomRequest() { return refusal }
            return [.rotate(room: room, adminHash: Capability.hash(of: admin), editHash: edit, viewHash: view)]
        case (.open, .snapshotChecked(let check)):
            // A device checks a snapshot or two per connection; each check costs a signature and a write to
            // the log, so they count toward the room requests a connection may make.
            if let refusal = countRoomRequest() { return refusal }
            guard memberships[check.room] != nil else {
                return [roomError(.notAMember, "subscribe to the room first", room: check.room)]
            }
            guard let signer = check.signer() else {
                return fail(.badSignature, "the snapshot check's signature does not verify", close: .invalidPayload)
            }
            return [.recordCheck(room: check.room, snapshot: check.snapshot, signer: signer)]
        case (.open(let device, _), .presence(let presence)):
            guard presence.device == device else {
                return fail(.impersonation, "presence for another device", close: .policyViolation)
            }
            if let membership = memberships[presence.room], !membership.rights.mayEdit {
                return refuseEditing(presence.room, "presence")
            }
            guard memberships[presence.room] != nil else {
                return [
                    .send(
                        .error(
                            code: ErrorCode.notAMember.rawValue,
                            message: "subscribe to the room first",
                            fatal: false,
                            room: presence.room
                        )
                    )
                ]
            }
            guard presenceRate.take(now: now) else {
                presenceDropped += 1
                return []
            }
            return [.relay(presence)]
        case (.closed, _):
            return []
        }
    }

    /// The shell looked up `room`: the rights `capability` gives there (``RoomAccess/rights(for:)``).
    /// Granted, the connection follows the room from `after`; refused, it hears why and counts one more
    /// refusal toward ``maximumRoomRequests``.
    public mutating func authorized(room: String, after: UInt64, capability: String, access: RoomAccess?) -> [Action] {
        guard !isClosed, pending.remove(room) != nil || memberships[room] != nil else { return [] }
        guard let access else {
            return refuseRoom(room, .noSuchRoom, "no board here has this id; check the link")
        }
        let rights = access.rights(for: capability)
        guard rights != .none else {
            return refuseRoom(room, .notAllowed, "this link does not open the board: it is wrong, or was replaced")
        }
        let isOpen = access == .open
        memberships[room] = Membership(rights: rights, capabilityHash: isOpen ? nil : Capability.hash(of: capability))
        return [.send(.access(room: room, rights: rights, guarded: !isOpen)), .catchUp(room: room, after: after)]
    }

    /// The shell looked up a room pushed to without a subscription: an open room takes the push (anyone
    /// who names it may edit); a guarded one needs a subscription with an edit capability first.
    public mutating func pushAuthorized(room: String, pack: [UInt8], access: RoomAccess?) -> [Action] {
        guard !isClosed else { return [] }
        guard access == .open else { return refuseEditing(room, "push") }
        if openPushRooms.insert(room).inserted, openPushRooms.count > maximumRooms {
            return fail(
                .tooManyRooms,
                "pushes to more than \(maximumRooms) rooms on one connection",
                close: .policyViolation
            )
        }
        return push(room: room, pack: pack)
    }

    /// The shell registered a room, or found it registered.
    public mutating func registered(room: String, outcome: RoomAccess.Registration) -> [Action] {
        guard !isClosed else { return [] }
        switch outcome {
        case .created, .alreadyRegistered:
            return [.send(.access(room: room, rights: .admin, guarded: true))]
        case .taken:
            return [roomError(.roomExists, "a board with this id already exists", room: room)]
        }
    }

    /// The shell tried a rotation: on success, the replaced capabilities' connections are closed.
    public mutating func rotated(room: String, outcome: RoomAccess.Rotation) -> [Action] {
        guard !isClosed else { return [] }
        switch outcome {
        case .rotated(let replaced):
            var actions: [Action] = [.send(.access(room: room, rights: .admin, guarded: true))]
            if !replaced.isEmpty { actions.append(.revoke(room: room, hashes: replaced)) }
            return actions
        case .refused:
            return [roomError(.notAllowed, "only the board's admin capability can replace its links", room: room)]
        }
    }

    /// The room's admin replaced `hashes`: a connection that subscribed with one of them is closed.
    public mutating func revoke(room: String, hashes: Set<[UInt8]>) -> [Action] {
        guard !isClosed, let hash = memberships[room]?.capabilityHash, hashes.contains(hash) else { return [] }
        return fail(
            .capabilityRevoked,
            "the link to this board was replaced; ask for the new one",
            close: .capabilityRevoked
        )
    }

    /// Whether the connection may add packs, presence or blobs to `room`.
    public func mayEdit(_ room: String) -> Bool { memberships[room]?.rights.mayEdit == true }

    /// A change to a room the connection may only read, or does not follow: fatal.
    private mutating func refuseEditing(_ room: String, _ what: String) -> [Action] {
        memberships[room] == nil
            ? fail(.viewOnly, "\(what) to a guarded room not subscribed to with an edit link", close: .viewOnly)
            : fail(.viewOnly, "\(what) on a view-only link", close: .viewOnly)
    }

    /// A subscription refused: the room is no longer followed (a follower that asked again with a link
    /// that no longer works stops receiving it), and the refusal counts toward ``maximumRoomRequests``.
    private mutating func refuseRoom(_ room: String, _ code: ErrorCode, _ message: String) -> [Action] {
        let wasFollowing = memberships.removeValue(forKey: room) != nil
        if let closing = countRoomRequest() { return closing }
        return (wasFollowing ? [.stopFollowing(room: room)] : []) + [roomError(code, message, room: room)]
    }

    /// One more subscription refused, room made or rotation tried; past the limit, the refusal that closes.
    private mutating func countRoomRequest() -> [Action]? {
        roomRequests += 1
        guard roomRequests > maximumRoomRequests else { return nil }
        return fail(
            .rateLimited,
            "more than \(maximumRoomRequests) room requests on one connection",
            close: .policyViolation
        )
    }

    private func roomError(_ code: ErrorCode, _ message: String, room: String) -> Action {
        .send(.error(code: code.rawValue, message: message, fatal: false, room: room))
    }

    /// A pushed pack: counted against the push rate, then stored if it verifies, refused with the code
    /// its fault has.
    private mutating func push(room: String, pack: [UInt8]) -> [Action] {
        guard pushRate.take(now: now) else {
            return fail(
                .rateLimited,
                "more than \(Int(rates.packsPerSecond)) pushes per second",
                close: .policyViolation
            )
        }
        let checked: PackCodec.Validated
        do {
            checked = try PackCodec.validate(pack, room: room, maximumBodyBytes: maximumPackBodyBytes)
        } catch .badSignature {
            return fail(.badSignature, "the pack's signature does not verify", close: .invalidPayload)
        } catch .forgedAuthor {
            return fail(.forgedAuthor, "the pack holds a change its signer does not own", close: .policyViolation)
        } catch .wrongRoom {
            return fail(.wrongRoom, "the pack was signed for another room", close: .policyViolation)
        } catch {
            return fail(.malformedPack, "malformed pack: \(error)", close: .invalidPayload)
        }
        let limit = wallClock.millisecondsSince1970() + SyncProtocol.maximumStampLeadMilliseconds
        if let latest = checked.latestStamp, latest.wallMilliseconds > limit {
            // An honest device whose clock runs ahead: not stored, not fatal; it pushes again later.
            return [
                .send(
                    .error(
                        code: ErrorCode.stampAhead.rawValue,
                        message:
                            "a change is stamped \(latest.wallMilliseconds - limit + SyncProtocol.maximumStampLeadMilliseconds) ms "
                            + "ahead of the server's clock; at most \(SyncProtocol.maximumStampLeadMilliseconds) ms is accepted",
                        fatal: false,
                        room: room
                    )
                )
            ]
        }
        return [.append(room: room, pack: checked.id, bytes: pack, author: checked.author, snapshot: checked.snapshot)]
    }

    /// The protocol version agreed at hello (0 before it).
    public var protocolVersion: UInt32 {
        if case .open(_, let version) = state { version } else { 0 }
    }

    /// The shell did not keep a pushed snapshot part: not fatal, and nothing was stored.
    public func snapshotRefused(room: String, reason: String) -> [Action] {
        isClosed ? [] : [roomError(.snapshotRefused, "the snapshot was not kept: \(reason)", room: room)]
    }

    /// The room's early history is kept only as a snapshot, and this connection's protocol cannot take
    /// one: the subscription ends there, and the app needs an update.
    public mutating func historyCompacted(room: String) -> [Action] {
        guard !isClosed, memberships.removeValue(forKey: room) != nil else { return [] }
        return [
            .stopFollowing(room: room),
            roomError(
                .historyCompacted,
                "this board's early history is kept as a snapshot, which this version of the app cannot read; "
                    + "please update the app",
                room: room
            ),
        ]
    }

    /// The shell made a pushed pack durable: acknowledge it.
    public func stored(room: String, pack: PackID, serverSeq: UInt64) -> [Action] {
        isClosed ? [] : [.send(.ack(room: room, pack: pack, serverSeq: serverSeq))]
    }

    /// The shell could not store a pushed pack: the client keeps it in its outbox and pushes again.
    public func storageFailed(room: String) -> [Action] {
        isClosed
            ? []
            : [
                .send(
                    .error(
                        code: ErrorCode.storageFailed.rawValue,
                        message: "the pack was not stored; push it again",
                        fatal: false,
                        room: room
                    )
                )
            ]
    }

    /// The shell did not store a pushed pack because its room is full: not fatal, and the client keeps
    /// the pack. Its other rooms, and reading this one, go on.
    /// A push to `room` was refused: the room is full. The connection's later pushes to it are refused too
    /// (``refusesAsFull(room:)``): they may be its author's next changes, and stored past the refused one
    /// they would leave a gap in the author's timeline that every device then holds past.
    public mutating func roomFull(room: String) -> [Action] {
        roomsRefusedFull.insert(room)
        return isClosed
            ? []
            : [
                .send(
                    .error(
                        code: ErrorCode.roomFull.rawValue,
                        message: "this board is full: the server stores no more of its changes",
                        fatal: false,
                        room: room
                    )
                )
            ]
    }

    /// Whether a push of this connection to `room` is refused without a commit, an earlier one having been
    /// refused because the room was full.
    public func refusesAsFull(room: String) -> Bool {
        roomsRefusedFull.contains(room)
    }

    /// The shell found a violation the session cannot see itself, such as a rate limit: error frame and close.
    public mutating func refuse(_ code: ErrorCode, _ message: String, close: CloseCode) -> [Action] {
        isClosed ? [] : fail(code, message, close: close)
    }

    /// The reason of the close that ends every connection when the server shuts down.
    static let shuttingDownReason = "server shutting down"

    /// The server is shutting down.
    public mutating func shutDown() -> [Action] {
        guard !isClosed else { return [] }
        state = .closed
        return [.close(.goingAway, reason: Self.shuttingDownReason)]
    }

    private mutating func hello(version: UInt32, minimum: UInt32, device: ReplicaID) -> [Action] {
        let spoken = min(version, SyncProtocol.version)
        guard minimum <= version, spoken >= max(minimum, SyncProtocol.minimumVersion) else {
            return fail(
                .unsupportedVersion,
                Self.versionRefusal(appMinimum: minimum, appVersion: version),
                close: .unsupportedVersion
            )
        }
        state = .open(device: device, protocolVersion: spoken)
        return [
            .send(
                .welcome(
                    protocolVersion: spoken,
                    server: server,
                    maximumFrameBytes: UInt32(maximumFrameBytes),
                    serverTime: wallClock.millisecondsSince1970()
                )
            )
        ]
    }

    /// Why a hello's versions meet none of this server's, naming the side that is older: the app, which
    /// its user can update, or the server, which only whoever runs it can.
    static func versionRefusal(appMinimum: UInt32, appVersion: UInt32) -> String {
        let speaks =
            "this server speaks protocol versions \(SyncProtocol.minimumVersion) to \(SyncProtocol.version), "
            + "and this app speaks \(appMinimum) to \(appVersion)"
        if appMinimum > appVersion { return speaks + ": the app's hello is malformed" }
        if appMinimum > SyncProtocol.version {
            return speaks + ": the server is older than the app; whoever runs it needs to update it"
        }
        return speaks + ": the app is older than the server; please update the app"
    }

    /// Sends a fatal error frame and closes.
    private mutating func fail(_ code: ErrorCode, _ message: String, close: CloseCode) -> [Action] {
        state = .closed
        memberships.removeAll()
        pending.removeAll()
        openPushRooms.removeAll()
        return [
            .send(.error(code: code.rawValue, message: message, fatal: true, room: "")),
            .close(close, reason: message),
        ]
    }
}
