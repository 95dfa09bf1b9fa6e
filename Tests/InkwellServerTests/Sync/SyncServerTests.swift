import Foundation
import HTTPTypes
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// The sync socket of a real server on a loopback port, driven frame by frame.
@Suite struct SyncServerTests {
    @Test func aTooOldAppIsToldInPlainWordsAndClosedWith4001() async throws {
        let server = try await RunningServer.start()
        let peer = try await server.peer(hello: false)
        try await peer.send(.hello(protocolVersion: 0, minimumProtocolVersion: 0, device: peer.device, agent: "old"))
        guard case .error(let code, let message, let fatal, _) = try await peer.next() else {
            throw TestFailure("no error frame")
        }
        #expect(code == ErrorCode.unsupportedVersion.rawValue)
        #expect(fatal)
        #expect(message.contains("please update the app"))
        #expect(await peer.socket.closure.code == CloseCode.unsupportedVersion.rawValue)
        await server.stop()
    }

    @Test func aPushIsAcknowledgedAndSentToOtherFollowersButNotEchoed() async throws {
        let server = try await RunningServer.start()
        let (alice, bob) = (try await server.peer(), try await server.peer())
        for peer in [alice, bob] {
            try await peer.subscribeToEmpty("room")
        }
        var random = SeededGenerator(seed: 1)
        let pack = TestPacks.make(room: "room", using: &random)
        try await alice.send(.push(room: "room", pack: pack.bytes))
        #expect(try await alice.next(where: \.isAck) == .ack(room: "room", pack: pack.id, serverSeq: 1))
        let delivered = try await bob.next(where: \.isPacks)
        #expect(delivered == .packs(room: "room", packs: [StoredPack(serverSeq: 1, bytes: pack.bytes)], head: 1))
        #expect(try await alice.received(during: .milliseconds(200), where: \.isPacks).isEmpty)
        // Acknowledged means durable: the log holds it.
        #expect(try await server.stored(room: "room").map(\.bytes) == [pack.bytes])
        await server.stop()
    }

    @Test func aFullRoomRefusesPushesWithoutClosingAndOtherRoomsGoOn() async throws {
        var limits = ServerLimits()
        limits.maximumRoomBytes = 2_000
        let server = try await RunningServer.start(limits: limits)
        let peer = try await server.peer()
        var random = SeededGenerator(seed: 21)
        var stored = 0
        var refused: ServerMessage?
        for _ in 0..<10 {
            let pack = TestPacks.make(room: "room", size: 400, using: &random)
            try await peer.send(.push(room: "room", pack: pack.bytes))
            let answer = try await peer.next { $0.isAck || $0.isError }
            guard answer.isAck else {
                refused = answer
                break
            }
            stored += pack.bytes.count
        }
        guard case .error(ErrorCode.roomFull.rawValue, _, false, "room") = refused else {
            throw TestFailure("no roomFull error, but \(String(describing: refused))")
        }
        #expect(stored <= 2_000 && stored > 1_000)
        let stillOpen = TestPacks.make(room: "elsewhere", using: &random)
        try await peer.send(.push(room: "elsewhere", pack: stillOpen.bytes))
        #expect(try await peer.next(where: \.isAck) == .ack(room: "elsewhere", pack: stillOpen.id, serverSeq: 1))
        #expect(try await server.stored(room: "room").map(\.bytes.count).reduce(0, +) == stored)
        await server.stop()
    }

    @Test func aRepushedPackIsStoredOnceAndAcknowledgedAtItsFirstPosition() async throws {
        let server = try await RunningServer.start()
        let peer = try await server.peer()
        var random = SeededGenerator(seed: 2)
        let pack = TestPacks.make(room: "room", using: &random)
        for _ in 0..<3 {
            try await peer.send(.push(room: "room", pack: pack.bytes))
            #expect(try await peer.next(where: \.isAck) == .ack(room: "room", pack: pack.id, serverSeq: 1))
        }
        #expect(try await server.stored(room: "room").count == 1)
        await server.stop()
    }

    @Test func catchUpComesInOrderInFewLargeFramesThenGoesLive() async throws {
        var limits = ServerLimits()
        limits.catchUpFrameBytes = 64 << 10
        limits.maximumFrameBytes = 16 << 10
        let server = try await RunningServer.start(limits: limits)
        let writer = try await server.peer()
        var random = SeededGenerator(seed: 3)
        var pushed: [[UInt8]] = []
        for _ in 0..<200 {
            let pack = TestPacks.make(room: "big", size: 1_000, using: &random)
            pushed.append(pack.bytes)
            try await writer.send(.push(room: "big", pack: pack.bytes))
        }
        for _ in 0..<200 { _ = try await writer.next(where: \.isAck) }

        let reader = try await server.peer()
        try await reader.subscribe("big", after: 50)
        guard case .progress("big", 200, let bytesBehind, 150) = try await reader.next() else {
            throw TestFailure("no progress first")
        }
        #expect(bytesBehind == UInt64(pushed[50...].map(\.count).reduce(0, +)))
        var received: [StoredPack] = []
        var frames = 0
        while received.count < 150 {
            guard case .packs("big", let packs, _) = try await reader.next() else { throw TestFailure("not packs") }
            received += packs
            frames += 1
        }
        #expect(received.map(\.serverSeq) == Array(51...200))
        #expect(received.map(\.bytes) == Array(pushed[50...]))
        // Coalesced: frames of about 64 KiB (fragmented on the wire at 16 KiB), not one per pack.
        #expect(frames <= 4)
        #expect(try await reader.next() == .progress(room: "big", head: 200, bytesBehind: 0, packsBehind: 0))
        // Live from here.
        let live = TestPacks.make(room: "big", using: &random)
        try await writer.send(.push(room: "big", pack: live.bytes))
        #expect(try await reader.next().positions == [201])
        await server.stop()
    }

    /// Rooms subscribed together are read and written together, several per frame budget: each room
    /// still gets its progress first, its packs in order exactly once, its live progress last, and
    /// then live packs.
    @Test func roomsCaughtUpTogetherEachArriveWholeAndInOrder() async throws {
        var limits = ServerLimits()
        limits.catchUpFrameBytes = 16 << 10
        let server = try await RunningServer.start(limits: limits)
        let writer = try await server.peer()
        var random = SeededGenerator(seed: 5)
        let rooms = (0..<6).map { "together-\($0)" }
        var pushed: [String: [[UInt8]]] = [:]
        for round in 0..<10 {
            for room in rooms where round < 4 + rooms.firstIndex(of: room)! {
                let pack = TestPacks.make(room: room, size: 3_000, using: &random)
                pushed[room, default: []].append(pack.bytes)
                try await writer.send(.push(room: room, pack: pack.bytes))
            }
        }
        for _ in 0..<pushed.values.map(\.count).reduce(0, +) { _ = try await writer.next(where: \.isAck) }

        let reader = try await server.peer()
        for room in rooms { try await reader.subscribe(room) }
        var received: [String: [StoredPack]] = [:]
        var live: Set<String> = []
        while live.count < rooms.count {
            switch try await reader.next() {
            case .progress(let room, let head, let bytesBehind, let packsBehind):
                let count = UInt64(pushed[room]!.count)
                if bytesBehind == 0, packsBehind == 0, received[room]?.last?.serverSeq == head {
                    #expect(head == count)
                    #expect(live.insert(room).inserted, "\(room) went live twice")
                } else {
                    #expect(received[room]?.map(\.serverSeq) == nil, "\(room): its first progress came after packs")
                    #expect(head == count && packsBehind == count)
                }
            case .packs(let room, let packs, _):
                #expect(!live.contains(room), "\(room): caught-up packs after going live")
                received[room, default: []] += packs
            case let other:
                throw TestFailure("unexpected \(other)")
            }
        }
        for room in rooms {
            #expect(received[room]?.map(\.serverSeq) == Array(1...UInt64(pushed[room]!.count)))
            #expect(received[room]?.map(\.bytes) == pushed[room])
        }
        let next = TestPacks.make(room: rooms[2], using: &random)
        try await writer.send(.push(room: rooms[2], pack: next.bytes))
        #expect(try await reader.next().positions == [UInt64(pushed[rooms[2]]!.count + 1)])
        await server.stop()
    }

    @Test func presenceGoesToOthersConnectedNowAndLeavingIsAnnounced() async throws {
        let server = try await RunningServer.start()
        let (alice, bob) = (try await server.peer(), try await server.peer())
        for peer in [alice, bob] { try await peer.subscribeToEmpty("room") }
        let cursor = Presence(room: "room", device: alice.device, name: "Alice", colour: 0xFF00_00FF, cursor: (3, 4))
        try await alice.send(.presence(cursor))
        #expect(try await bob.next(where: \.isPresence) == .presence(cursor))
        #expect(try await alice.received(during: .milliseconds(200), where: \.isPresence).isEmpty)
        // Presence for another device is impersonation.
        let mallory = try await server.peer()
        try await mallory.subscribe("room")
        try await mallory.send(.presence(Presence(room: "room", device: alice.device, name: "Alice", colour: 0)))
        let closure = await mallory.socket.closure
        #expect(closure.code == CloseCode.policyViolation.rawValue, "\(closure)")
        await alice.socket.close()
        let left = try await bob.leaving(of: alice.device)
        #expect(left.cursor == nil && left.ink == nil)
        // Never stored.
        #expect(try await server.stored(room: "room").isEmpty)
        await server.stop()
    }

    @Test func aSlowReaderFallsBackToCatchUpAndNeitherMissesNorStallsOthers() async throws {
        var limits = ServerLimits()
        limits.sendBufferBytes = 32 << 10
        let server = try await RunningServer.start(limits: limits)
        let (writer, slow, fast) = (try await server.peer(), try await server.peer(), try await server.peer())
        for peer in [slow, fast] {
            try await peer.subscribeToEmpty("room")
        }
        slow.socket.pauseReading()
        var random = SeededGenerator(seed: 4)
        let count = 300
        for _ in 0..<count {
            try await writer.send(
                .push(room: "room", pack: TestPacks.make(room: "room", size: 30_000, using: &random).bytes)
            )
        }
        // The fast follower gets everything live while the slow one reads nothing.
        var fastPositions: [UInt64] = []
        while fastPositions.count < count {
            fastPositions += try await fast.next(within: .seconds(30), where: \.isPacks).positions
        }
        #expect(fastPositions == Array(1...UInt64(count)))
        slow.socket.resumeReading()
        var slowPositions: [UInt64] = []
        while slowPositions.last != UInt64(count) {
            slowPositions += try await slow.next(within: .seconds(30), where: \.isPacks).positions
        }
        #expect(slowPositions == Array(1...UInt64(count)))
        let metrics = server.server.metricsExposition
        #expect(metrics.contains("inkwell_slow_subscriber_fallbacks_total"))
        #expect(!metrics.contains("inkwell_slow_subscriber_fallbacks_total 0\n"))
        await server.stop()
    }

    /// Presence that piles up for a connection that does not read is delivered newest-last per sender,
    /// with older presence of a sender dropped rather than sent after its newer one.
    @Test func presenceThatPilesUpEndsWithTheNewestOfEachSender() async throws {
        let server = try await RunningServer.start()
        let reader = try await server.peer()
        let senders = [try await server.peer(), try await server.peer(), try await server.peer()]
        for peer in [reader] + senders {
            try await peer.subscribeToEmpty("room")
        }
        // The reader's writer is held up by a large pack while the reader does not read.
        reader.socket.pauseReading()
        var random = SeededGenerator(seed: 12)
        let pack = TestPacks.make(room: "room", size: 3 << 20, using: &random)
        try await senders[0].send(.push(room: "room", pack: pack.bytes))
        _ = try await senders[0].next(within: .seconds(30), where: \.isAck)
        let steps = 5
        for step in 0..<steps {
            for (index, sender) in senders.enumerated() {
                try await sender.send(
                    .presence(
                        Presence(
                            room: "room",
                            device: sender.device,
                            name: "m\(index)",
                            colour: 1,
                            cursor: (Double(step), 0)
                        )
                    )
                )
            }
        }
        reader.socket.resumeReading()
        _ = try await reader.next(within: .seconds(30), where: \.isPacks)
        var received: [ReplicaID: [Double]] = [:]
        while senders.contains(where: { received[$0.device]?.last != Double(steps - 1) }) {
            for presence in try await reader.next(where: \.isPresence).presences {
                received[presence.device, default: []].append(presence.cursor?.x ?? -1)
            }
        }
        for sender in senders {
            let seen = received[sender.device] ?? []
            #expect(seen == seen.sorted() && Set(seen).count == seen.count, "\(seen)")
        }
        await server.stop()
    }

    /// Many followers subscribe at once to rooms that nobody follows yet, while the catch-ups of the
    /// first ones hold the log's readers. Reading a room's head under the hub's lock once deadlocked the
    /// server here: every reader was held by a catch-up waiting for a thread, and every thread waited
    /// for the lock.
    @Test func manySubscriptionsToNewRoomsAtOnceAllGoLive() async throws {
        let server = try await RunningServer.start()
        let writer = try await server.peer()
        var random = SeededGenerator(seed: 11)
        let rooms = (0..<200).map { "room-\($0)" }
        let packsPerRoom = 3
        for room in rooms {
            for _ in 0..<packsPerRoom {
                try await writer.send(
                    .push(room: room, pack: TestPacks.make(room: room, size: 20_000, using: &random).bytes)
                )
            }
        }
        for _ in 0..<(rooms.count * packsPerRoom) { _ = try await writer.next(where: \.isAck) }

        var followers: [(TestPeer, [String])] = []
        for _ in 0..<100 {
            followers.append((try await server.peer(), Array(rooms.shuffled(using: &random).prefix(20))))
        }
        for (peer, followed) in followers {
            for room in followed { try await peer.subscribe(room) }
        }
        for (peer, followed) in followers {
            for room in followed {
                let live = try await peer.next(within: .seconds(30)) { message in
                    if case .progress(room, UInt64(packsPerRoom), 0, 0) = message { true } else { false }
                }
                #expect(live == .progress(room: room, head: UInt64(packsPerRoom), bytesBehind: 0, packsBehind: 0))
            }
        }
        await server.stop()
    }

    @Test func pushesOverTheRateLimitCloseTheConnectionWith1008() async throws {
        var limits = ServerLimits()
        limits.packsPerSecond = 5
        let server = try await RunningServer.start(limits: limits)
        let peer = try await server.peer()
        var random = SeededGenerator(seed: 5)
        for _ in 0..<30 {
            try? await peer.send(.push(room: "room", pack: TestPacks.make(room: "room", using: &random).bytes))
        }
        guard case .error(let code, _, true, _) = try await peer.next(where: \.isError) else {
            throw TestFailure("no fatal error")
        }
        #expect(code == ErrorCode.rateLimited.rawValue)
        #expect(await peer.socket.closure.code == CloseCode.policyViolation.rawValue)
        await server.stop()
    }

    @Test func aPeerThatNeverSaysHelloIsClosed() async throws {
        var limits = ServerLimits()
        limits.helloTimeout = .milliseconds(300)
        let server = try await RunningServer.start(limits: limits)
        let peer = try await server.peer(hello: false)
        // The error names the timeout that closed it: this one, not the 5 s default or the idle timeout.
        guard case .error(let code, let message, true, _) = try await peer.next(where: \.isError) else {
            throw TestFailure("no fatal error")
        }
        #expect(code == ErrorCode.timeout.rawValue)
        #expect(message == "no hello within \(limits.helloTimeout)")
        #expect(await peer.socket.closure.code == CloseCode.policyViolation.rawValue)
        await server.stop()
    }

    @Test func aMalformedPushClosesWith1007AndStoresNothing() async throws {
        let server = try await RunningServer.start()
        let peer = try await server.peer()
        try await peer.send(.push(room: "room", pack: [0x0A, 0x10, 1, 2, 3]))
        guard case .error(let code, _, true, _) = try await peer.next(where: \.isError) else {
            throw TestFailure("no fatal error")
        }
        #expect(code == ErrorCode.malformedPack.rawValue)
        #expect(await peer.socket.closure.code == CloseCode.invalidPayload.rawValue)
        #expect(try await server.stored(room: "room").isEmpty)
        await server.stop()
    }

    @Test func browsersFromOtherOriginsAreRefusedAndListedOnesLetIn() async throws {
        let server = try await RunningServer.start(allowedOrigins: ["https://friend.example"])
        #expect(try Handshake.status(port: server.port, origin: "https://evil.example") == 400)
        #expect(try Handshake.status(port: server.port, origin: "https://friend.example") == 101)
        #expect(try Handshake.status(port: server.port, origin: "http://127.0.0.1:\(server.port)") == 101)
        // Native clients: the WebSocket library sends a ws: origin, which no web page can have.
        let native = try await server.peer()
        #expect(!native.hasEnded)
        await server.stop()
    }
}
