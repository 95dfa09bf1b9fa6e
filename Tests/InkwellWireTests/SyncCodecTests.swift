import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct SyncCodecTests {
    static let device = ReplicaID(high: 0xD, low: 0xE)

    @Test func clientMessagesRoundTrip() throws {
        let presence = Presence(
            room: "r-1",
            device: Self.device,
            name: "Ada",
            colour: 0xFF00_00FF,
            cursor: (1.5, -2),
            ink: ("main", 7, 3.5, [1, 2, 3])
        )
        let messages: [ClientMessage] = [
            .hello(protocolVersion: 1, minimumProtocolVersion: 1, device: Self.device, agent: "inkwell-tests/1"),
            .subscribe(room: "room.a_b-c", after: 42, capability: ""),
            .subscribe(room: "r", after: 0, capability: Capability.mint(.view).text),
            .createRoom(
                room: "r",
                adminHash: Capability.mint(.admin).hash,
                editHash: Capability.mint(.edit).hash,
                viewHash: Capability.mint(.view).hash
            ),
            .rotateCapability(
                room: "r",
                admin: Capability.mint(.admin).text,
                editHash: [],
                viewHash: Capability.mint(.view).hash
            ),
            .unsubscribe(room: "r"),
            .push(room: "r", pack: PackCodecTests.sampleBytes()),
            .presence(presence),
        ]
        for message in messages { #expect(try SyncCodec.decodeClient(SyncCodec.encode(message)) == message) }
    }

    @Test func serverMessagesRoundTrip() throws {
        let messages: [ServerMessage] = [
            .welcome(
                protocolVersion: 2,
                server: Self.device,
                maximumFrameBytes: 1 << 20,
                serverTime: 1_795_000_000_000
            ),
            .ack(room: "r", pack: PackID(of: [1, 2]), serverSeq: 9),
            .access(room: "r", rights: .view, guarded: true),
            .access(room: "r", rights: .edit, guarded: false),
            .packs(
                room: "r",
                packs: [StoredPack(serverSeq: 3, bytes: [1, 2]), StoredPack(serverSeq: 4, bytes: [3])],
                head: 4
            ),
            .progress(room: "r", head: 10, bytesBehind: 500, packsBehind: 2),
            .error(code: 2, message: "please update the app", fatal: true, room: ""),
        ]
        for message in messages { #expect(try SyncCodec.decodeServer(SyncCodec.encode(message)) == message) }
    }

    /// A relay batches presence by concatenating encoded presences; the frame must be the one the
    /// generated encoder writes, for one presence and for many, including one long enough to need a
    /// two-byte length.
    @Test func presenceFramesBuiltFromEncodedPresencesMatchTheEncoder() throws {
        let presences = [
            Presence(room: "r", device: Self.device, name: "Ada", colour: 1, cursor: (1.5, -2)),
            Presence(room: "r", device: ReplicaID(high: 1, low: 2), name: "", colour: 0),
            Presence(
                room: "r",
                device: ReplicaID(high: 3, low: 4),
                name: "Grace",
                colour: 0xFF00_00FF,
                ink: ("main", 7, 3.5, [UInt8](repeating: 9, count: 300))
            ),
        ]
        let encoded = presences.map(SyncCodec.encodePresence)
        let one = SyncCodec.presenceFrame([encoded[0]])
        #expect(one == SyncCodec.encode(ServerMessage.presence(presences[0])))
        #expect(try SyncCodec.decodeServer(one) == .presence(presences[0]))
        let batch = SyncCodec.presenceFrame(encoded)
        #expect(batch == SyncCodec.encode(ServerMessage.presences(presences)))
        #expect(try SyncCodec.decodeServer(batch) == .presences(presences))
    }

    /// A server writes catch-up frames in pieces around stored packs it copies in itself; the frame
    /// must be the one the generated encoder writes, with lengths of one, two and three bytes, and
    /// with the fields proto3 leaves out (an empty room, a zero head, position or pack).
    @Test func packsFramesBuiltInPiecesMatchTheEncoder() throws {
        let big = StoredPack(serverSeq: 300, bytes: [UInt8](repeating: 7, count: 20_000))
        let cases: [(room: String, packs: [StoredPack], head: UInt64)] = [
            ("r", [StoredPack(serverSeq: 3, bytes: [1, 2]), StoredPack(serverSeq: 4, bytes: [3])], 4),
            ("room-\(String(repeating: "x", count: 120))", [big, StoredPack(serverSeq: 1 << 40, bytes: [9])], 1 << 40),
            ("", [StoredPack(serverSeq: 0, bytes: []), StoredPack(serverSeq: 1, bytes: [0])], 0),
            ("r", [StoredPack(serverSeq: 5, bytes: [UInt8](repeating: 1, count: 200))], 5),
        ]
        for (room, packs, head) in cases {
            var body: [UInt8] = []
            for pack in packs {
                SyncCodec.appendStoredPackHeader(serverSeq: pack.serverSeq, packBytes: pack.bytes.count, to: &body)
                body += pack.bytes
            }
            body += SyncCodec.packsFrameTail(head: head)
            let start = SyncCodec.packsFrameHead(room: room, bodyBytes: body.count)
            #expect(start.count <= SyncCodec.packsFrameHeadMaximumBytes(room: room))
            let message = ServerMessage.packs(room: room, packs: packs, head: head)
            #expect(start + body == SyncCodec.encode(message))
        }
    }

    @Test func anEmptyPresenceBatchIsRefused() {
        // ServerFrame.presences (field 7) holding an empty PresenceBatch.
        #expect(throws: WireError.missingField("presences.presences")) { try SyncCodec.decodeServer([0x3A, 0x00]) }
    }

    @Test(arguments: ["", "a/b", "ü", String(repeating: "x", count: 129), "room name"])
    func invalidRoomNamesAreRejected(room: String) {
        #expect(!SyncProtocol.isValidRoom(room))
        #expect(throws: WireError.invalidField("room")) {
            try SyncCodec.decodeClient(SyncCodec.encode(.subscribe(room: room, after: 0, capability: "")))
        }
    }

    @Test func garbageAndEmptyFramesGetTypedErrors() {
        #expect(throws: WireError.malformed("frame")) { try SyncCodec.decodeClient([0xFF, 0xFF]) }
        #expect(throws: WireError.missingField("frame")) { try SyncCodec.decodeClient([]) }
        #expect(throws: WireError.missingField("push.pack")) {
            try SyncCodec.decodeClient(SyncCodec.encode(.push(room: "r", pack: [])))
        }
    }
}
