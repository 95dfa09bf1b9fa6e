import Foundation
import InkwellClient
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellServer

/// Several nodes on one PostgreSQL: a push committed on one reaches the room's members on the others,
/// in position order with no gap; packs that no notification told of (a node that died between its
/// commit and its `NOTIFY`) still arrive, read from the log; and members spread over three nodes who all
/// push at once end with the same packs at the same positions.
@Suite(.timeLimit(.minutes(2))) struct ClusterTests {
    @Test func aPushOnOneNodeReachesTheRoomsMembersOnAnother() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let (a, b) = (try await Self.node(url), try await Self.node(url))
        let (alice, bob) = (try await a.peer(), try await b.peer())
        for peer in [alice, bob] {
            try await peer.subscribeToEmpty("room")
        }
        var random = SeededGenerator(seed: 31)
        let first = TestPacks.make(room: "room", using: &random)
        try await alice.send(.push(room: "room", pack: first.bytes))
        #expect(try await alice.next(where: \.isAck) == .ack(room: "room", pack: first.id, serverSeq: 1))
        #expect(
            try await bob.next(where: \.isPacks)
                == .packs(room: "room", packs: [StoredPack(serverSeq: 1, bytes: first.bytes)], head: 1)
        )
        let second = TestPacks.make(room: "room", using: &random)
        try await bob.send(.push(room: "room", pack: second.bytes))
        #expect(try await bob.next(where: \.isAck) == .ack(room: "room", pack: second.id, serverSeq: 2))
        #expect(
            try await alice.next(where: \.isPacks)
                == .packs(room: "room", packs: [StoredPack(serverSeq: 2, bytes: second.bytes)], head: 2)
        )
        // Alice's own pack is not sent back to her from the other node.
        #expect(try await alice.received(during: .milliseconds(300), where: \.isPacks).isEmpty)
        // Each node told the other of its commit, and heard of the other's.
        for node in [a, b] {
            let metrics = node.server.metricsExposition
            #expect(Self.count("inkwell_cluster_notifications_sent_total", in: metrics) >= 1)
            #expect(Self.count("inkwell_cluster_notifications_received_total", in: metrics) >= 1)
            #expect(metrics.contains(#"store="postgresql"} 1"#))
        }
        await a.stop()
        await b.stop()
    }

    /// A member's cursor on one node reaches the room's members on the others, and so does its leaving;
    /// its own node does not send it back to it.
    @Test func presenceCrossesToTheRoomsMembersOnOtherNodes() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let (a, b) = (try await Self.node(url), try await Self.node(url))
        let (alice, bob) = (try await a.peer(), try await b.peer())
        for peer in [alice, bob] {
            try await peer.subscribeToEmpty("room")
        }
        let cursor = Presence(room: "room", device: alice.device, name: "Alice", colour: 0xFF00_00FF, cursor: (3, 4))
        try await alice.send(.presence(cursor))
        #expect(try await bob.next(where: \.isPresence) == .presence(cursor))
        #expect(try await alice.received(during: .milliseconds(200), where: \.isPresence).isEmpty)
        await alice.socket.close()
        let left = try await bob.leaving(of: alice.device)
        #expect(left.cursor == nil && left.ink == nil)
        await a.stop()
        await b.stop()
    }

    /// Notifications carry heads and presence under PostgreSQL's payload limit, and a payload that is not a
    /// notice, or presence that does not decode, is left out.
    @Test func noticesStayUnderThePayloadLimitAndForgedOnesAreIgnored() throws {
        let heads = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("room-\($0)", UInt64($0)) })
        let presence = SyncCodec.encodePresence(
            Presence(room: "room", device: ReplicaID(high: 1, low: 2), name: "N", colour: 1, cursor: (1, 2))
        )
        let payloads = ClusterFeed.payloads(
            node: "node",
            heads: heads,
            presences: Array(repeating: presence, count: 500)
        )
        #expect(payloads.count > 1)
        var heard: [String: UInt64] = [:]
        var presences = 0
        for payload in payloads {
            #expect(payload.utf8.count < 8_000)
            let notice = try #require(ClusterFeed.Notice(payload: payload))
            heard.merge(notice.heads) { $1 }
            presences += notice.decodedPresences.count
        }
        #expect(heard == heads)
        #expect(presences == 500)
        #expect(ClusterFeed.Notice(payload: "not base64!") == nil)
        #expect(ClusterFeed.Notice(payload: #"{"node":"x"}"#) == nil, "the former JSON form is not read")
        let headless = ClusterFeed.Notice(node: "x", heads: ["room": 1]).encoded
        #expect(ClusterFeed.Notice(payload: String(headless.dropLast(4))) == nil, "a cut notice")
        let nameless = Data(Array(Data(base64Encoded: headless)!).dropFirst(3)).base64EncodedString()
        #expect(ClusterFeed.Notice(payload: nameless) == nil, "a notice names its node")
        let forged = ClusterFeed.Notice(node: "x", presences: [[0, 1, 2], [0xFF, 0xFF]])
        let read = try #require(ClusterFeed.Notice(payload: forged.encoded))
        #expect(read == forged)
        #expect(read.decodedPresences.isEmpty, "presence that does not decode is left out")
    }

    /// A notice written and read back holds what it was given, and any change of its bytes either reads
    /// as another notice or not at all, never traps.
    @Test func noticesReadBackWhatWasWrittenAndSurviveDamage() throws {
        let presence = SyncCodec.encodePresence(
            Presence(room: "room", device: ReplicaID(high: 3, low: 4), name: "N", colour: 1, cursor: (1, 2))
        )
        let notice = ClusterFeed.Notice(node: "node-1", heads: ["a": 0, "b": 7, "ü": .max], presences: [presence])
        #expect(ClusterFeed.Notice(payload: notice.encoded) == notice)
        #expect(ClusterFeed.Notice(payload: notice.encoded)?.decodedPresences.count == 1)
        var random = SeededGenerator(seed: 41)
        let bytes = Array(Data(base64Encoded: notice.encoded)!)
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { damaged.removeLast(Int.random(in: 0..<damaged.count, using: &random)) }
            _ = ClusterFeed.Notice(payload: Data(damaged).base64EncodedString())?.decodedPresences
        }
    }

    /// Packs committed with no notification at all (written to the log directly, as a node that died just
    /// after its commit leaves them) reach a node's followers all the same: nodes read their rooms' heads
    /// from the log, whatever they heard.
    @Test func packsNoNotificationToldOfStillArriveFromTheLog() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let node = try await Self.node(url)
        let bob = try await node.peer()
        try await bob.subscribeToEmpty("room")
        var random = SeededGenerator(seed: 32)
        let packs = (0..<3).map { _ in TestPacks.make(room: "room", using: &random) }
        let outcomes = try await node.withStore { store in
            try await store.append(
                packs.map { PackLog.Push(room: "room", pack: $0.id, bytes: $0.bytes) },
                watermarks: []
            )
        }
        #expect(outcomes == [.stored(1), .stored(2), .stored(3)])
        var received: [StoredPack] = []
        while received.count < 3 {
            guard case .packs(_, let more, _) = try await bob.next(within: .seconds(5), where: \.isPacks) else {
                continue
            }
            received += more
        }
        #expect(received.map(\.serverSeq) == [1, 2, 3])
        #expect(received.map(\.bytes) == packs.map(\.bytes))
        await node.stop()
    }

    /// Two members on each of three nodes push into one room at once: every member is sent every other
    /// member's pack at its position, in order and without a gap, and acknowledged its own, so that all six
    /// hold the room's same packs at the same positions.
    @Test func membersOnThreeNodesPushingAtOnceAllHoldTheSameLog() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let seed = SeededGenerator.seedFromEnvironment()
        print("ClusterTests seed \(seed) (INKWELL_SEED)")
        var nodes: [RunningServer] = []
        for _ in 0..<3 { nodes.append(try await Self.node(url)) }
        var peers: [TestPeer] = []
        for node in nodes + nodes {
            let peer = try await node.peer()
            try await peer.subscribeToEmpty("room")
            peers.append(peer)
        }
        let perPeer = 15
        let logs = try await withThrowingTaskGroup(of: [UInt64: [UInt8]].self) { group in
            for (index, peer) in peers.enumerated() {
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(index))
                    var held: [UInt64: [UInt8]] = [:]
                    var own: [PackID: [UInt8]] = [:]
                    for _ in 0..<perPeer {
                        let pack = TestPacks.make(room: "room", using: &random)
                        own[pack.id] = pack.bytes
                        try await peer.send(.push(room: "room", pack: pack.bytes))
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0...20, using: &random)))
                    }
                    var last: UInt64 = 0
                    while held.count < perPeer * 6 {
                        let message = try await peer.next(within: .seconds(20)) { $0.isPacks || $0.isAck }
                        switch message {
                        case .ack(_, let pack, let position):
                            held[position] = own[pack]
                        case .packs(_, let packs, _):
                            for stored in packs {
                                // In order, without a gap: never past the first position the member lacks.
                                guard stored.serverSeq <= last + 1 else {
                                    throw TestFailure(
                                        "seed \(seed): member \(index) sent \(stored.serverSeq) after \(last)"
                                    )
                                }
                                held[stored.serverSeq] = stored.bytes
                                while held[last + 1] != nil { last += 1 }
                            }
                        default:
                            break
                        }
                        while held[last + 1] != nil { last += 1 }
                    }
                    return held
                }
            }
            var logs: [[UInt64: [UInt8]]] = []
            for try await log in group { logs.append(log) }
            return logs
        }
        let stored = try await nodes[0].stored(room: "room")
        #expect(stored.map(\.serverSeq) == Array(1...UInt64(perPeer * 6)))
        let truth = Dictionary(uniqueKeysWithValues: stored.map { ($0.serverSeq, $0.bytes) })
        for (index, log) in logs.enumerated() {
            #expect(log == truth, "seed \(seed): member \(index) holds another log")
        }
        for node in nodes { await node.stop() }
    }

    /// Nodes that share `--data` share the blobs' bytes, and the database says which room holds which: a
    /// blob uploaded through one node is read through another, and uploading it again there stores nothing.
    @Test func aBlobUploadedThroughOneNodeIsReadThroughAnother() async throws {
        guard let url = try await TestStore.postgresDatabase() else { return }
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-cluster-\(UUID())")
        defer { try? FileManager.default.removeItem(at: shared) }
        let a = try await RunningServer.start(directory: shared, store: .postgres, postgresURL: url)
        let b = try await RunningServer.start(directory: shared, store: .postgres, postgresURL: url)
        func request(_ method: String, _ blob: TestBlob, node: RunningServer) async throws -> RawHTTP.Response {
            let body = method == "PUT" ? blob.bytes : []
            return try await RawHTTP.exchange(
                port: node.port,
                head: "\(method) \(blob.url(in: "room")) HTTP/1.1\r\nHost: 127.0.0.1:\(node.port)\r\n"
                    + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n",
                body: .whole(body)
            )
        }
        let blob = TestBlob(count: 70_001, seed: 24)
        let put = try await request("PUT", blob, node: a)
        #expect(put.status == 201, "\(RawHTTP.error(put) ?? "")")
        let get = try await request("GET", blob, node: b)
        #expect(get.status == 200, "\(RawHTTP.error(get) ?? "")")
        let same = get.body == blob.bytes
        #expect(same, "node b's copy differs (\(get.body.count) bytes)")
        let again = try await request("PUT", blob, node: b)
        #expect(again.status == 200, "already held: \(RawHTTP.error(again) ?? "")")
        let absent = try await request("GET", TestBlob(count: 10, seed: 25), node: b)
        #expect(absent.status == 404, "\(RawHTTP.error(absent) ?? "")")
        await a.stop()
        await b.stop()
    }

    /// The value of an unlabelled counter in a metrics exposition (0 when it is not there).
    static func count(_ name: String, in exposition: String) -> Double {
        exposition.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// A node on `url`, its blobs in a folder of its own.
    static func node(_ url: String) async throws -> RunningServer {
        try await RunningServer.start(store: .postgres, postgresURL: url)
    }
}
