import Foundation
import InkwellSync
import SwiftProtobuf

/// Sync protocol frames to and from bytes. Decoding checks the size before parsing and every field
/// after: a frame that throws ``WireError`` has told the receiver nothing.
public enum SyncCodec {
    public static func encode(_ message: ClientMessage) -> [UInt8] {
        var frame = WireClientFrame()
        switch message {
        case .hello(let version, let minimum, let device, let agent):
            var hello = WireHello()
            hello.protocolVersion = version
            hello.minimumProtocolVersion = minimum
            hello.device = Data(device.bytes)
            hello.agent = agent
            frame.frame = .hello(hello)
        case .subscribe(let room, let after, let capability):
            var subscribe = WireSubscribe()
            subscribe.room = room
            subscribe.after = after
            subscribe.capability = capability
            frame.frame = .subscribe(subscribe)
        case .unsubscribe(let room):
            var unsubscribe = WireUnsubscribe()
            unsubscribe.room = room
            frame.frame = .unsubscribe(unsubscribe)
        case .push(let room, let pack):
            var push = WirePush()
            push.room = room
            push.pack = Data(pack)
            frame.frame = .push(push)
        case .presence(let presence):
            return presenceClientFrame(presence)
        case .createRoom(let room, let adminHash, let editHash, let viewHash):
            var create = WireCreateRoom()
            create.room = room
            (create.adminHash, create.editHash, create.viewHash) = (Data(adminHash), Data(editHash), Data(viewHash))
            frame.frame = .createRoom(create)
        case .rotateCapability(let room, let admin, let editHash, let viewHash):
            var rotate = WireRotateCapability()
            rotate.room = room
            rotate.adminCapability = admin
            (rotate.editHash, rotate.viewHash) = (Data(editHash), Data(viewHash))
            frame.frame = .rotateCapability(rotate)
        case .snapshotChecked(let check):
            var checked = WireSnapshotChecked()
            checked.room = check.room
            checked.snapshot = Data(check.snapshot.bytes)
            checked.author = Data(check.author)
            checked.signature = Data(check.signature)
            frame.frame = .snapshotChecked(checked)
        }
        return try! frame.serializedBytes()
    }

    public static func encode(_ message: ServerMessage) -> [UInt8] {
        var frame = WireServerFrame()
        switch message {
        case .welcome(let version, let server, let maximumFrameBytes, let serverTime):
            var welcome = WireWelcome()
            welcome.protocolVersion = version
            welcome.server = Data(server.bytes)
            welcome.limits.maxFrameBytes = maximumFrameBytes
            welcome.serverTime = serverTime
            frame.frame = .welcome(welcome)
        case .ack(let room, let pack, let serverSeq):
            var ack = WireAck()
            ack.room = room
            ack.packID = Data(pack.bytes)
            ack.serverSeq = serverSeq
            frame.frame = .ack(ack)
        case .packs(let room, let packs, let head):
            frame.frame = .packs(packsMessage(room: room, packs: packs, head: head, rebase: 0))
        case .rebase(let room, let parts, let position, let head):
            precondition(position > 0, "a rebase names the position its snapshot stands for")
            frame.frame = .packs(packsMessage(room: room, packs: parts, head: head, rebase: position))
        case .presence(let presence):
            frame.frame = .presence(encode(presence))
        case .presences(let presences):
            var batch = WirePresenceBatch()
            batch.presences = presences.map(encode)
            frame.frame = .presences(batch)
        case .progress(let room, let head, let bytesBehind, let packsBehind):
            var progress = WireProgress()
            (progress.room, progress.head, progress.bytesBehind, progress.packsBehind) = (
                room, head, bytesBehind, packsBehind
            )
            frame.frame = .progress(progress)
        case .error(let code, let message, let fatal, let room):
            var error = WireServerError()
            (error.code, error.message, error.fatal, error.room) = (code, message, fatal, room)
            frame.frame = .error(error)
        case .access(let room, let rights, let guarded):
            var access = WireAccess()
            access.room = room
            access.rights = WireRights(rawValue: Int(rights.rawValue)) ?? .none
            access.guarded = guarded
            frame.frame = .access(access)
        }
        return try! frame.serializedBytes()
    }

    /// A `packs` message: a room's stored packs, its head, and (when not 0) the position a rebase stands for.
    private static func packsMessage(room: String, packs: [StoredPack], head: UInt64, rebase: UInt64) -> WirePacks {
        var message = WirePacks()
        message.room = room
        message.head = head
        message.rebase = rebase
        message.packs = packs.map { pack in
            var stored = WireStoredPack()
            stored.serverSeq = pack.serverSeq
            stored.pack = Data(pack.bytes)
            return stored
        }
        return message
    }

    public static func decodeClient(_ bytes: [UInt8]) throws(WireError) -> ClientMessage {
        guard bytes.count <= SyncProtocol.maximumFrameBytes else { throw .tooLarge("frame") }
        let frame: WireClientFrame
        do {
            frame = try WireClientFrame(serializedBytes: bytes)
        } catch {
            throw .malformed("frame")
        }
        switch frame.frame {
        case .hello(let hello):
            guard let device = ReplicaID(bytes: hello.device) else { throw .invalidField("hello.device") }
            guard hello.agent.utf8.count <= WireLimits.maximumNameBytes else { throw .invalidField("hello.agent") }
            return .hello(
                protocolVersion: hello.protocolVersion,
                minimumProtocolVersion: hello.minimumProtocolVersion,
                device: device,
                agent: hello.agent
            )
        case .subscribe(let subscribe):
            return .subscribe(
                room: try room(subscribe.room),
                after: subscribe.after,
                capability: try capability(subscribe.capability, "subscribe.capability")
            )
        case .unsubscribe(let unsubscribe):
            return .unsubscribe(room: try room(unsubscribe.room))
        case .push(let push):
            guard !push.pack.isEmpty else { throw .missingField("push.pack") }
            return .push(room: try room(push.room), pack: Array(push.pack))
        case .presence(let presence):
            return .presence(try decode(presence))
        case .createRoom(let create):
            return .createRoom(
                room: try room(create.room),
                adminHash: try capabilityHash(create.adminHash, "create_room.admin_hash", required: true),
                editHash: try capabilityHash(create.editHash, "create_room.edit_hash", required: true),
                viewHash: try capabilityHash(create.viewHash, "create_room.view_hash", required: true)
            )
        case .rotateCapability(let rotate):
            guard !rotate.editHash.isEmpty || !rotate.viewHash.isEmpty else {
                throw .missingField("rotate_capability.edit_hash")
            }
            return .rotateCapability(
                room: try room(rotate.room),
                admin: try capability(rotate.adminCapability, "rotate_capability.admin_capability"),
                editHash: try capabilityHash(rotate.editHash, "rotate_capability.edit_hash", required: false),
                viewHash: try capabilityHash(rotate.viewHash, "rotate_capability.view_hash", required: false)
            )
        case .snapshotChecked(let checked):
            guard let snapshot = SnapshotID(bytes: checked.snapshot) else {
                throw .invalidField("snapshot_checked.snapshot")
            }
            guard checked.author.count == 32 else { throw .invalidField("snapshot_checked.author") }
            guard checked.signature.count == 64 else { throw .invalidField("snapshot_checked.signature") }
            return .snapshotChecked(
                SnapshotCheck(
                    room: try room(checked.room),
                    snapshot: snapshot,
                    author: Array(checked.author),
                    signature: Array(checked.signature)
                )
            )
        case nil:
            throw .missingField("frame")
        }
    }

    public static func decodeServer(_ bytes: [UInt8]) throws(WireError) -> ServerMessage {
        guard bytes.count <= SyncProtocol.maximumFrameBytes else { throw .tooLarge("frame") }
        let frame: WireServerFrame
        do {
            frame = try WireServerFrame(serializedBytes: bytes)
        } catch {
            throw .malformed("frame")
        }
        switch frame.frame {
        case .welcome(let welcome):
            guard let server = ReplicaID(bytes: welcome.server) else { throw .invalidField("welcome.server") }
            return .welcome(
                protocolVersion: welcome.protocolVersion,
                server: server,
                maximumFrameBytes: welcome.limits.maxFrameBytes,
                serverTime: welcome.serverTime
            )
        case .ack(let ack):
            guard let pack = PackID(bytes: ack.packID) else { throw .invalidField("ack.pack_id") }
            return .ack(room: try room(ack.room), pack: pack, serverSeq: ack.serverSeq)
        case .packs(let packs):
            let stored = packs.packs.map { StoredPack(serverSeq: $0.serverSeq, bytes: Array($0.pack)) }
            guard packs.rebase == 0 else {
                return .rebase(room: try room(packs.room), parts: stored, position: packs.rebase, head: packs.head)
            }
            return .packs(room: try room(packs.room), packs: stored, head: packs.head)
        case .presence(let presence):
            return .presence(try decode(presence))
        case .presences(let batch):
            guard !batch.presences.isEmpty else { throw .missingField("presences.presences") }
            var presences: [Presence] = []
            presences.reserveCapacity(batch.presences.count)
            for presence in batch.presences { presences.append(try decode(presence)) }
            return .presences(presences)
        case .progress(let progress):
            return .progress(
                room: try room(progress.room),
                head: progress.head,
                bytesBehind: progress.bytesBehind,
                packsBehind: progress.packsBehind
            )
        case .error(let error):
            guard error.message.utf8.count <= SyncProtocol.maximumErrorMessageBytes else {
                throw .invalidField("error.message")
            }
            return .error(code: error.code, message: error.message, fatal: error.fatal, room: error.room)
        case .access(let access):
            guard let rights = Rights(rawValue: UInt8(clamping: access.rights.rawValue)), rights != .none else {
                throw .invalidField("access.rights")
            }
            return .access(room: try room(access.room), rights: rights, guarded: access.guarded)
        case nil:
            throw .missingField("frame")
        }
    }

    /// A presence alone, encoded as a `Presence` message, for ``presenceFrame(_:)``.
    public static func encodePresence(_ presence: Presence) -> [UInt8] {
        presenceMessage(presence)
    }

    /// A server frame of presence from ``encodePresence(_:)`` bytes, built without decoding them: a
    /// `presence` frame for one, a `presences` batch for more. The bytes are those ``encode(_:)-(ServerMessage)``
    /// writes for the same messages, so a relay that batches pays a copy, not a re-encoding.
    public static func presenceFrame<Encoded: Collection<UInt8>>(_ presences: [Encoded]) -> [UInt8] {
        precondition(!presences.isEmpty, "a presence frame holds at least one presence")
        if presences.count == 1 {
            // ServerFrame.presence: field 4.
            var frame = WireWriter(capacity: presences[0].count + 6)
            frame.field(4, presences[0])
            return frame.bytes
        }
        // ServerFrame.presences: field 7, holding PresenceBatch.presences, field 1, once per presence.
        let body = presences.reduce(0) { $0 + 1 + WireWriter.varintSize(UInt64($1.count)) + $1.count }
        var frame = WireWriter(capacity: body + 6)
        frame.key(7, 2)
        frame.varint(UInt64(body))
        for presence in presences { frame.field(1, presence) }
        return frame.bytes
    }

    // MARK: Packs frames written around stored bytes

    /// The most bytes ``packsFrameHead(room:bodyBytes:)`` writes for `room`: room for it to be written
    /// in front of stored packs already in place.
    public static func packsFrameHeadMaximumBytes(room: String) -> Int {
        let roomBytes = room.utf8.count
        return 1 + 10 + (roomBytes == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(roomBytes)) + roomBytes)
    }

    /// The start of a `packs` frame (its key, its length and the room) whose stored packs and tail,
    /// `bodyBytes` in all, follow.
    ///
    /// A server copies each stored pack straight into its output from the log, after the bytes of
    /// ``appendStoredPackHeader(serverSeq:packBytes:to:)``, then writes ``packsFrameTail(head:)`` and
    /// this head in front; together they are the bytes ``encode(_:)-(ServerMessage)`` writes for the
    /// same `.packs` message, without a copy of the packs in between.
    public static func packsFrameHead(room: String, bodyBytes: Int) -> [UInt8] {
        let roomBytes = room.utf8.count
        let roomField = roomBytes == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(roomBytes)) + roomBytes
        var frame = WireWriter(capacity: packsFrameHeadMaximumBytes(room: room))
        // ServerFrame.packs: field 3, holding Packs.room (field 1), Packs.packs (2) and Packs.head (3).
        frame.key(3, 2)
        frame.varint(UInt64(roomField + bodyBytes))
        if roomBytes > 0 { frame.field(1, room.utf8) }
        return frame.bytes
    }

    /// Appends to `bytes` what comes before a stored pack's `packBytes` bytes in a `packs` frame: the
    /// `Packs.packs` key and length, and the `StoredPack` fields up to the pack's own bytes.
    ///
    /// - Complexity: O(1); appending to a reused array allocates nothing.
    public static func appendStoredPackHeader(serverSeq: UInt64, packBytes: Int, to bytes: inout [UInt8]) {
        let sequenceField = serverSeq == 0 ? 0 : 1 + WireWriter.varintSize(serverSeq)
        let packField = packBytes == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(packBytes)) + packBytes
        WireWriter.append(to: &bytes) { writer in
            writer.key(2, 2)
            writer.varint(UInt64(sequenceField + packField))
            writer.varintField(1, serverSeq)
            if packBytes != 0 {
                writer.key(2, 2)
                writer.varint(UInt64(packBytes))
            }
        }
    }

    /// The most bytes ``appendStoredPackHeader(serverSeq:packBytes:to:)`` appends.
    public static let storedPackHeaderMaximumBytes = 3 * (1 + 10)

    /// The most bytes ``packsFrameTail(head:)`` returns.
    public static let packsFrameTailMaximumBytes = 1 + 10

    /// The end of a `packs` frame, after its stored packs: the room's head.
    public static func packsFrameTail(head: UInt64) -> [UInt8] {
        var tail = WireWriter(capacity: packsFrameTailMaximumBytes)
        tail.varintField(3, head)
        return tail.bytes
    }

    /// A capability as a frame carries it: empty, or at most ``Capability/maximumLength`` bytes. Its form
    /// is not checked here: a malformed one simply matches no hash.
    static func capability(_ text: String, _ field: String) throws(WireError) -> String {
        guard text.utf8.count <= Capability.maximumLength else { throw .invalidField(field) }
        return text
    }

    /// A capability hash: 32 bytes, or empty where that keeps the current one.
    static func capabilityHash(_ hash: Data, _ field: String, required: Bool) throws(WireError) -> [UInt8] {
        if hash.isEmpty, !required { return [] }
        guard hash.count == Capability.hashBytes else { throw .invalidField(field) }
        return Array(hash)
    }

    static func room(_ name: String) throws(WireError) -> String {
        guard SyncProtocol.isValidRoom(name) else { throw .invalidField("room") }
        return name
    }

    static func encode(_ presence: Presence) -> WirePresence {
        var wire = WirePresence()
        wire.room = presence.room
        wire.device = Data(presence.device.bytes)
        wire.name = presence.name
        wire.colour = presence.colour
        if let cursor = presence.cursor {
            (wire.hasCursor_p, wire.cursorX, wire.cursorY) = (true, cursor.x, cursor.y)
        }
        if let ink = presence.ink {
            wire.board = ink.board
            wire.ink.colour = ink.colour
            wire.ink.width = ink.width
            wire.ink.points = Data(ink.points)
        }
        wire.sealed = Data(presence.sealed)
        return wire
    }

    static func decode(_ wire: WirePresence) throws(WireError) -> Presence {
        guard let device = ReplicaID(bytes: wire.device) else { throw .invalidField("presence.device") }
        guard wire.name.utf8.count <= WireLimits.maximumNameBytes else { throw .invalidField("presence.name") }
        guard wire.ink.points.count <= SyncProtocol.maximumPresenceBytes else { throw .tooLarge("presence.ink") }
        var presence = Presence(room: try room(wire.room), device: device, name: wire.name, colour: wire.colour)
        if wire.hasCursor_p {
            guard wire.cursorX.isFinite, wire.cursorY.isFinite else { throw .invalidField("presence.cursor") }
            presence.cursor = (wire.cursorX, wire.cursorY)
        }
        if wire.hasInk {
            presence.ink = (wire.board, wire.ink.colour, wire.ink.width, Array(wire.ink.points))
        }
        guard wire.sealed.count <= SyncProtocol.maximumPresenceBytes + 1024 else { throw .tooLarge("presence.sealed") }
        presence.sealed = Array(wire.sealed)
        return presence
    }
}
