import InkwellServer
import InkwellSync
import InkwellWire
import Testing

/// The rates a connection is held to, each checked before what it guards is parsed or inflated.
@Suite struct ServerSessionRateTests {
    static let start = ContinuousClock.now

    static func session(_ rates: ServerSession.Rates) -> ServerSession {
        var session = ServerSession(
            server: ServerSessionTests.server,
            wallClock: ServerSessionTests.FixedClock(),
            rates: rates,
            now: start
        )
        _ = session.received(ServerSessionTests.hello, at: start)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")), at: start)
        _ = session.authorized(room: "r", after: 0, capability: "", access: .open)
        return session
    }

    static func closedForRate(_ actions: [ServerSession.Action]) -> Bool {
        guard case .send(.error(ErrorCode.rateLimited.rawValue, _, true, _)) = actions.first,
            case .close(.policyViolation, _) = actions.last
        else { return false }
        return true
    }

    @Test func bytesOverTheRateCloseTheConnectionBeforeTheFrameIsRead() {
        var session = Self.session(.init(bytesPerSecond: 1_000, byteBurst: 2_000))
        let garbage = [UInt8](repeating: 0xFF, count: 900)
        #expect(
            !Self.closedForRate(session.received(garbage, at: Self.start)),
            "within the burst: read, found malformed"
        )
        var fresh = Self.session(.init(bytesPerSecond: 1_000, byteBurst: 2_000))
        let presence = SyncCodec.encode(
            ClientMessage.presence(Presence(room: "r", device: ServerSessionTests.device, name: "", colour: 0))
        )
        var sent = 0
        var closed = false
        for _ in 0..<1_000 where !closed {
            closed = Self.closedForRate(fresh.received(presence, at: Self.start))
            sent += presence.count
        }
        #expect(closed && sent > 2_000 - presence.count && sent <= 2_000 + presence.count)
        var later = Self.session(.init(bytesPerSecond: 1_000, byteBurst: 2_000))
        for _ in 0..<10 { _ = later.received(presence, at: Self.start) }
        #expect(!Self.closedForRate(later.receivedLater(presence)), "the bucket refills")
    }

    @Test func pushesOverTheRateCloseBeforeThePackIsOpened() {
        var session = Self.session(.init(packsPerSecond: 2))
        let malformed = SyncCodec.encode(.push(room: "r", pack: [0x0A, 0x01, 0x00]))
        let pack = SyncCodec.encode(.push(room: "r", pack: ServerSessionTests.pack))
        for _ in 0..<4 { #expect(session.received(pack, at: Self.start).count == 1) }
        // The fifth push in the same instant is over the burst: refused for its rate, not its bytes.
        #expect(Self.closedForRate(session.received(malformed, at: Self.start)))
    }

    @Test func presenceOverTheRateIsDroppedNotRelayed() {
        var session = Self.session(.init(presencePerSecond: 5))
        let presence = Presence(room: "r", device: ServerSessionTests.device, name: "Ada", colour: 1)
        let frame = SyncCodec.encode(ClientMessage.presence(presence))
        let relayed = (0..<50).map { _ in session.received(frame, at: Self.start) }.filter { $0 == [.relay(presence)] }
        #expect(relayed.count == 10, "the burst, twice the rate")
        #expect(session.presenceDropped == 40)
        #expect(!session.isClosed, "spam is throttled, not fatal")
        #expect(session.received(frame, at: Self.start + .seconds(1)) == [.relay(presence)], "the bucket refills")
    }
}

extension ServerSession {
    /// One frame a minute after the session started: its bucket is full again.
    fileprivate mutating func receivedLater(_ frame: [UInt8]) -> [Action] {
        received(frame, at: ServerSessionRateTests.start + .seconds(60))
    }
}
