import InkwellSync
import InkwellWire

/// One kind of hostile traffic, and how the server must answer it.
struct HostileCase: Sendable, CustomStringConvertible {
    /// A connection once its offending bytes are out.
    struct Attack {
        let socket: RawWebSocket
        /// When the last offending byte was handed to the network.
        let sentAt: ContinuousClock.Instant
    }

    let name: String
    /// The close codes the server is documented to send (CloseCode.swift, or the WebSocket layer's own
    /// for frame-level violations); empty when the connection never became a WebSocket.
    let expected: Set<UInt16>
    /// Closed by a deadline (the header or the hello deadline, both 5 s) rather than a violation, so it
    /// may take up to that deadline.
    var waitsForDeadline = false
    /// A server bug this case shows, with a minimal test in HostileServerBugTests: its problems are
    /// known issues here until the bug is fixed.
    var knownBug: String?
    let attack: @Sendable (inout HostileContext) throws -> Attack

    init(
        name: String,
        expected: Set<UInt16>,
        knownBug: String? = nil,
        attack: @escaping @Sendable (inout HostileContext) throws -> Attack
    ) {
        self.name = name
        self.expected = expected
        self.knownBug = knownBug
        self.attack = attack
    }

    var description: String { name }

    /// 1002: frames out of order, or a WebSocket protocol violation.
    static let protocolError: UInt16 = 1002
    /// 1007: a frame or pack that does not decode (and text frames).
    static let invalidPayload: UInt16 = 1007
    /// 1008: impersonation, rate limit, or no hello in time.
    static let policyViolation: UInt16 = 1008
    /// 1009: a frame or message over the size limits.
    static let tooBig: UInt16 = 1009
    /// 4001: a protocol version the server does not speak.
    static let unsupportedVersion: UInt16 = 4001
}

extension HostileCase {
    /// Every case the big test runs (the slow ones apart: they are the only ones allowed a deadline).
    static let catalogue: [HostileCase] = beforeHello + afterHello + packs + frames

    /// The cases closed by a deadline, not by a violation.
    static let slow: [HostileCase] = [silent, silentBeforeHTTP, halfARequestHead]

    /// A connection that says nothing: closed by the hello deadline (5 s), with 1008.
    static let silent = HostileCase(name: "silent, never says hello", expected: [policyViolation]) { context in
        let socket = try context.connect()
        return Attack(socket: socket, sentAt: .now)
    }.waitingForDeadline()

    /// A socket that never sends its HTTP request: closed by the header deadline (5 s).
    static let silentBeforeHTTP = HostileCase(name: "silent, never sends a request", expected: []) { context in
        let socket = try RawWebSocket(unupgradedPort: context.port, random: context.random)
        return Attack(socket: socket, sentAt: .now)
    }.waitingForDeadline()

    /// Half of an upgrade request's head, then nothing: closed by the header deadline (5 s).
    static let halfARequestHead = HostileCase(name: "half a request head", expected: []) { context in
        let socket = try RawWebSocket(unupgradedPort: context.port, random: context.random)
        let head = "GET /sync HTTP/1.1\r\nHost: 127.0.0.1:\(context.port)\r\nUpgrade: websocket\r\n"
        return Attack(socket: socket, sentAt: socket.offend(Array(head.utf8)))
    }.waitingForDeadline()

    private func waitingForDeadline() -> HostileCase {
        var copy = self
        copy.waitsForDeadline = true
        return copy
    }

    static let beforeHello: [HostileCase] = [
        HostileCase(name: "garbage before hello", expected: [invalidPayload]) { context in
            let socket = try context.connect()
            // The first byte is a tag of wire type 7, which does not exist: never a valid frame.
            var garbage = context.garbage(1...2_048)
            garbage[0] = garbage[0] & 0x78 | 0x07
            return Attack(socket: socket, sentAt: socket.offend(frame(garbage, socket)))
        },
        HostileCase(name: "truncated hello", expected: [invalidPayload]) { context in
            let socket = try context.connect()
            let hello = SyncCodec.encode(
                .hello(
                    protocolVersion: SyncProtocol.version,
                    minimumProtocolVersion: SyncProtocol.minimumVersion,
                    device: context.device,
                    agent: "hostile"
                )
            )
            let cut = Int.random(in: 1..<hello.count, using: &context.random)
            return Attack(socket: socket, sentAt: socket.offend(frame(Array(hello[..<cut]), socket)))
        },
        HostileCase(name: "push before hello", expected: [protocolError]) { context in
            let socket = try context.connect()
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(), socket)))
        },
        HostileCase(name: "hello from a newer protocol only", expected: [unsupportedVersion]) { context in
            let socket = try context.connect()
            let hello = ProtobufWriter.hello(version: 1_000, minimum: 999, device: context.device.bytes)
            return Attack(socket: socket, sentAt: socket.offend(frame(hello, socket)))
        },
        HostileCase(name: "hello from an older protocol only", expected: [unsupportedVersion]) { context in
            let socket = try context.connect()
            let hello = ProtobufWriter.hello(version: 0, minimum: 0, device: context.device.bytes)
            return Attack(socket: socket, sentAt: socket.offend(frame(hello, socket)))
        },
        HostileCase(name: "hello whose minimum is above its version", expected: [unsupportedVersion]) { context in
            let socket = try context.connect()
            let hello = ProtobufWriter.hello(version: 1, minimum: 7, device: context.device.bytes)
            return Attack(socket: socket, sentAt: socket.offend(frame(hello, socket)))
        },
        HostileCase(name: "text frame", expected: [invalidPayload]) { context in
            let socket = try context.connect()
            let text = #"{"hello":{"protocolVersion":1,"device":"\#(context.device)"}}"#
            let bytes = RawFrame(opcode: RawFrame.text, payload: Array(text.utf8), maskKey: socket.maskKey()).bytes
            return Attack(socket: socket, sentAt: socket.offend(bytes))
        },
        HostileCase(name: "TLS handshake instead of HTTP", expected: []) { context in
            let socket = try RawWebSocket(unupgradedPort: context.port, random: context.random)
            // A TLS ClientHello's record header, then noise: no HTTP method starts like this.
            let bytes: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
            return Attack(socket: socket, sentAt: socket.offend(bytes + context.garbage(16...512)))
        },
    ]

    static let afterHello: [HostileCase] = [
        HostileCase(name: "garbage after hello", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            var garbage = context.garbage(1...2_048)
            garbage[0] = garbage[0] & 0x78 | 0x06
            return Attack(socket: socket, sentAt: socket.offend(frame(garbage, socket)))
        },
        HostileCase(name: "truncated push", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let push = context.pushFrame()
            let cut = Int.random(in: 1..<push.count, using: &context.random)
            return Attack(socket: socket, sentAt: socket.offend(frame(Array(push[..<cut]), socket)))
        },
        HostileCase(name: "frame whose push length lies", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let push = ProtobufWriter.push(room: context.room, pack: context.pack().bytes)
            let lie = [1, 4_096, 1 << 20, 1 << 62][Int.random(in: 0...3, using: &context.random)]
            let frameBytes = ProtobufWriter.clientFrame(4, push, announcing: UInt64(push.count + lie))
            return Attack(socket: socket, sentAt: socket.offend(frame(frameBytes, socket)))
        },
        HostileCase(name: "push whose pack length lies", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let pack = context.pack().bytes
            let lie = UInt64(pack.count + Int.random(in: 1...100_000, using: &context.random))
            let frameBytes = ProtobufWriter.clientFrame(
                4,
                ProtobufWriter.push(room: context.room, pack: pack, announcing: lie)
            )
            return Attack(socket: socket, sentAt: socket.offend(frame(frameBytes, socket)))
        },
        HostileCase(name: "hello twice", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let hello = SyncCodec.encode(
                .hello(
                    protocolVersion: SyncProtocol.version,
                    minimumProtocolVersion: SyncProtocol.minimumVersion,
                    device: context.device,
                    agent: "again"
                )
            )
            return Attack(socket: socket, sentAt: socket.offend(frame(hello, socket)))
        },
        HostileCase(name: "presence for another device, then a push", expected: [policyViolation]) { context in
            let socket = try context.connectAndHello()
            let other = ReplicaID(using: &context.random)
            let presence = SyncCodec.encode(
                ClientMessage.presence(Presence(room: context.room, device: other, name: "not me", colour: 0xFF00_00FF))
            )
            // The push in the same write must die with the connection, not be stored.
            let bytes = frame(presence, socket) + frame(context.pushFrame(), socket)
            return Attack(socket: socket, sentAt: socket.offend(bytes))
        },
    ]

    static let packs: [HostileCase] = [
        HostileCase(name: "pack whose body length lies", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let plain = context.packBody()
            let body = BombBodies.deflate(plain)
            let lie = UInt64(body.count + Int.random(in: 1...64, using: &context.random))
            let pack = context.envelope(compression: 1, body: body, bodySize: UInt64(plain.count), announcingBody: lie)
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "decompression bomb declaring 1 KiB", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let pack = context.envelope(compression: 1, body: BombBodies.shared.thirtyTwoMiB, bodySize: 1_024)
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "decompression bomb declaring over the limit", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let size: UInt64 = Bool.random(using: &context.random) ? 9 << 20 : UInt64(UInt32.max)
            let pack = context.envelope(compression: 1, body: BombBodies.shared.nineMiB, bodySize: size)
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack body larger than declared", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let plain = context.packBody()
            let deflated = Bool.random(using: &context.random)
            let pack = context.envelope(
                compression: deflated ? 1 : 0,
                body: deflated ? BombBodies.deflate(plain) : plain,
                bodySize: UInt64(plain.count - Int.random(in: 1...10, using: &context.random))
            )
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack body smaller than declared", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let plain = context.packBody()
            let deflated = Bool.random(using: &context.random)
            let pack = context.envelope(
                compression: deflated ? 1 : 0,
                body: deflated ? BombBodies.deflate(plain) : plain,
                bodySize: UInt64(plain.count + Int.random(in: 1...100_000, using: &context.random))
            )
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack with an unknown compression", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let plain = context.packBody()
            let pack = context.envelope(compression: 7, body: plain, bodySize: UInt64(plain.count))
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack with a 31-byte author key", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let plain = context.packBody()
            let key = Array(context.key.publicKey.prefix(31))
            let pack = context.envelope(compression: 0, body: plain, bodySize: UInt64(plain.count), author: key)
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack with a flipped signature bit", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            var pack = context.pack().bytes
            pack[pack.count - 1 - Int.random(in: 0..<64, using: &context.random)] ^= 0x04
            context.record(pack: PackID(of: pack))
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack with a truncated signature", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            let pack = Array(context.pack().bytes.dropLast(Int.random(in: 1...66, using: &context.random)))
            context.record(pack: PackID(of: pack))
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack holding another replica's change", expected: [policyViolation]) { context in
            let socket = try context.connectAndHello()
            let victim = AuthorKey(using: &context.random).replica
            let pack = context.pack(replica: Bool.random(using: &context.random) ? victim : nil, forging: victim).bytes
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
        HostileCase(name: "pack signed for another room", expected: [policyViolation]) { context in
            let socket = try context.connectAndHello()
            let pack = context.pack(room: context.room + "-elsewhere").bytes
            return Attack(socket: socket, sentAt: socket.offend(frame(context.pushFrame(pack: pack), socket)))
        },
    ]

    static let frames: [HostileCase] = [
        HostileCase(name: "frame header announcing 2^62 bytes", expected: [tooBig]) { context in
            let socket = try context.connectAndHello()
            var header = RawFrame(opcode: RawFrame.binary, payload: [], maskKey: socket.maskKey())
            header.announcedLength = 1 << 62
            return Attack(socket: socket, sentAt: socket.offend(header.header + context.garbage(16...64)))
        },
        HostileCase(name: "frame over the 1 MiB frame limit", expected: [tooBig]) { context in
            let socket = try context.connect()
            var header = RawFrame(opcode: RawFrame.binary, payload: [], maskKey: socket.maskKey())
            header.announcedLength = (1 << 20) + 1
            // The header is the violation; the rest of the payload would only be left unread.
            return Attack(socket: socket, sentAt: socket.offend(header.header + context.garbage(1_024...4_096)))
        },
        HostileCase(
            name: "fragmented message over the 8 MiB message limit",
            expected: [tooBig],

        ) { context in
            let socket = try context.connectAndHello()
            let fragment = [UInt8](repeating: 0x5A, count: 1 << 20)
            // Eight fragments of 1 MiB fill the limit exactly.
            for index in 0..<8 {
                let opcode = index == 0 ? RawFrame.binary : RawFrame.continuation
                let bytes = RawFrame(opcode: opcode, payload: fragment, fin: false, maskKey: socket.maskKey()).bytes
                guard socket.send(bytes: bytes) else { return Attack(socket: socket, sentAt: .now) }
            }
            // The server answers a ping only once it has read the frames before it, so the clock starts
            // when the byte over the limit goes out, not while megabytes still wait in socket buffers.
            try socket.ping(context.garbage(8...8))
            let last = RawFrame(opcode: RawFrame.continuation, payload: [0x5A], maskKey: socket.maskKey())
            return Attack(socket: socket, sentAt: socket.offend(last.bytes))
        },
        HostileCase(name: "fragmented ping", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let ping = RawFrame(
                opcode: RawFrame.ping,
                payload: context.garbage(1...16),
                fin: false,
                maskKey: socket.maskKey()
            )
            return Attack(socket: socket, sentAt: socket.offend(ping.bytes))
        },
        HostileCase(name: "control frame over 125 bytes", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let opcode = Bool.random(using: &context.random) ? RawFrame.ping : RawFrame.pong
            let control = RawFrame(opcode: opcode, payload: context.garbage(126...4_000), maskKey: socket.maskKey())
            return Attack(socket: socket, sentAt: socket.offend(control.bytes))
        },
        HostileCase(
            name: "continuation frame with no start",
            expected: [protocolError],

        ) { context in
            let socket = try context.connectAndHello()
            let orphan = RawFrame(
                opcode: RawFrame.continuation,
                payload: context.pushFrame(),
                maskKey: socket.maskKey()
            )
            return Attack(socket: socket, sentAt: socket.offend(orphan.bytes))
        },
        HostileCase(
            name: "new message inside a fragmented one",
            expected: [protocolError],

        ) { context in
            let socket = try context.connectAndHello()
            let push = context.pushFrame()
            let half = push.count / 2
            let first = RawFrame(
                opcode: RawFrame.binary,
                payload: Array(push[..<half]),
                fin: false,
                maskKey: socket.maskKey()
            )
            let second = RawFrame.binary(Array(push[half...]), mask: socket.maskKey())
            return Attack(socket: socket, sentAt: socket.offend(first.bytes + second.bytes))
        },
        HostileCase(name: "unmasked client frame", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let unmasked = RawFrame(opcode: RawFrame.binary, payload: context.pushFrame(), maskKey: nil)
            return Attack(socket: socket, sentAt: socket.offend(unmasked.bytes))
        },
        HostileCase(name: "data frame with reserved bits set", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let bits = UInt8.random(in: 1...7, using: &context.random)
            let frame = RawFrame(
                opcode: RawFrame.binary,
                payload: context.pushFrame(),
                reserved: bits,
                maskKey: socket.maskKey()
            )
            return Attack(socket: socket, sentAt: socket.offend(frame.bytes))
        },
        HostileCase(name: "frame with a reserved opcode", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            // Non-control ones: a control opcode with this payload would already fail NIO's length check.
            let opcode = UInt8.random(in: 0x3...0x7, using: &context.random)
            let frame = RawFrame(opcode: opcode, payload: context.pushFrame(), maskKey: socket.maskKey())
            return Attack(socket: socket, sentAt: socket.offend(frame.bytes))
        },
        HostileCase(name: "frame length longer than its message", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            // The first frame announces its truncated push plus the whole next frame, which carries a
            // valid push: the server must read one broken message, not two.
            let truncated = Array(context.pushFrame().dropLast(10))
            let next = RawFrame.binary(context.pushFrame(), mask: socket.maskKey()).bytes
            var first = RawFrame(opcode: RawFrame.binary, payload: truncated, maskKey: socket.maskKey())
            first.announcedLength = UInt64(truncated.count + next.count)
            let firstBytes = first.header + RawFrame.mask(truncated, with: first.maskKey!)
            return Attack(socket: socket, sentAt: socket.offend(firstBytes + next))
        },
        HostileCase(name: "frame length shorter than its message", expected: [invalidPayload]) { context in
            let socket = try context.connectAndHello()
            // The header covers three bytes of the push; the rest follows as a valid push frame, which
            // the connection must not live to deliver.
            let push = context.pushFrame()
            let short = RawFrame.binary(Array(push.prefix(3)), mask: socket.maskKey()).bytes
            let rest = RawFrame.binary(context.pushFrame(), mask: socket.maskKey()).bytes
            return Attack(socket: socket, sentAt: socket.offend(short + rest))
        },
        HostileCase(name: "close frame with a reserved code", expected: [protocolError]) { context in
            let socket = try context.connectAndHello()
            let code = [UInt16(999), 1004, 1005, 1006, 2_000][Int.random(in: 0...4, using: &context.random)]
            let close = RawFrame(
                opcode: RawFrame.close,
                payload: RawFrame.closePayload(code),
                maskKey: socket.maskKey()
            )
            return Attack(socket: socket, sentAt: socket.offend(close.bytes))
        },
    ]

    /// One masked binary frame holding `payload`.
    private static func frame(_ payload: [UInt8], _ socket: RawWebSocket) -> [UInt8] {
        RawFrame.binary(payload, mask: socket.maskKey()).bytes
    }
}
