import InkwellSync
import InkwellWire
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import InkwellServer

/// The hub's bookkeeping without sockets: connections on embedded channels, whose queues the tests read
/// before any drain runs.
@Suite struct RoomHubTests {
    private let metrics = ServerMetrics()

    private func connection(_ id: UInt64, limits: ServerLimits = ServerLimits()) -> Connection {
        Connection(
            id: id,
            session: ServerSession(server: .random()),
            limits: limits,
            channel: EmbeddedChannel(),
            presenceHold: .zero,
            metrics: metrics,
            logger: Logger(label: "test")
        )
    }

    /// What waits in a connection's queue, decoded.
    private func queued(_ connection: Connection) throws -> [ServerMessage] {
        guard case .items(let items) = connection.queue.take() else { return [] }
        return try items.compactMap { item in
            guard case .frame(let buffer) = item else { return nil }
            return try SyncCodec.decodeServer(Array(buffer.readableBytesView))
        }
    }

    private func encoded(_ message: ServerMessage) -> ByteBuffer {
        ByteBuffer(bytes: SyncCodec.encode(message))
    }

    @Test func removingAConnectionLeavesTheRoomsItFollowedAndOnlyThose() {
        let hub = RoomHub(metrics: metrics)
        let (a, b) = (connection(1), connection(2))
        for room in ["x", "y", "z"] { hub.subscribe(a, room: room, after: 0, head: 0) }
        for room in ["y", "w"] { hub.subscribe(b, room: room, after: 0, head: 0) }
        #expect(hub.counts == (4, 2))
        #expect(Set(hub.remove(a)) == ["x", "y", "z"])
        #expect(hub.counts == (2, 1))
        #expect(hub.members(of: "y").map(\.id) == [2])
        #expect(hub.remove(a).isEmpty)
        #expect(hub.unsubscribe(b, room: "y"))
        #expect(!hub.unsubscribe(b, room: "y"))
        #expect(Set(hub.remove(b)) == ["w"])
        #expect(hub.counts == (0, 0))
    }

    @Test func eachPusherHearsItsAckInCommitOrderAmongTheRoomsPacks() throws {
        let hub = RoomHub(metrics: metrics)
        let (alice, bob) = (connection(1), connection(2))
        for member in [alice, bob] {
            let start = hub.catchUpPosition(member, room: "r")
            #expect(start == nil)
            hub.subscribe(member, room: "r", after: 0, head: 0)
            let position = try #require(hub.catchUpPosition(member, room: "r"))
            #expect(hub.goLive(member, room: "r", subscription: position.subscription) == 0)
            _ = member.queue.take()
        }
        let (first, second) = (PackID(of: [1]), PackID(of: [2]))
        hub.fanOut([
            RoomHub.Committed(
                room: "r",
                bytes: [1],
                position: 1,
                pusher: alice,
                ack: encoded(.ack(room: "r", pack: first, serverSeq: 1))
            ),
            RoomHub.Committed(
                room: "r",
                bytes: [2],
                position: 2,
                pusher: bob,
                ack: encoded(.ack(room: "r", pack: second, serverSeq: 2))
            ),
        ])
        #expect(
            try queued(alice) == [
                .ack(room: "r", pack: first, serverSeq: 1),
                .packs(room: "r", packs: [StoredPack(serverSeq: 2, bytes: [2])], head: 2),
            ]
        )
        #expect(
            try queued(bob) == [
                .packs(room: "r", packs: [StoredPack(serverSeq: 1, bytes: [1])], head: 1),
                .ack(room: "r", pack: second, serverSeq: 2),
            ]
        )
    }

    @Test func aClosedSessionsPushIsFannedOutWithNoAck() throws {
        let hub = RoomHub(metrics: metrics)
        let alice = connection(1)
        hub.fanOut([RoomHub.Committed(room: "r", bytes: [1], position: 1, pusher: alice, ack: nil)])
        #expect(try queued(alice).isEmpty)
    }

    @Test func aPusherThatReadsNothingIsDroppedWhenItsAcksReachTheCeiling() throws {
        var limits = ServerLimits()
        limits.sendBufferBytes = 100
        limits.sendBufferHeadroom = 50
        let alice = connection(1, limits: limits)
        let channel = alice.channel as! EmbeddedChannel
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        #expect(channel.isActive)
        #expect(alice.queue.push(.frame(ByteBuffer(repeating: 0, count: 140))).accepted)
        let hub = RoomHub(metrics: metrics)
        let ack = encoded(.ack(room: "r", pack: PackID(of: [1]), serverSeq: 1))
        #expect(ack.readableBytes > 10, "the ack takes the queue past its ceiling of 150")
        hub.fanOut([RoomHub.Committed(room: "r", bytes: [1], position: 1, pusher: alice, ack: ack)])
        #expect(!channel.isActive, "the socket of a peer that reads nothing is dropped")
        #expect(alice.queue.push(.frame(ack)) == .refused, "and its queue takes nothing more")
    }
}
