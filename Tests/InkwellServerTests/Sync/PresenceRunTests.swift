import InkwellSync
import InkwellWire
import NIOCore
import Testing

@testable import InkwellServer

/// Runs of queued presence become one frame; anything else ends a run.
@Suite struct PresenceRunTests {
    private func presence(_ index: Int, inkBytes: Int = 0) -> Presence {
        Presence(
            room: "r",
            device: ReplicaID(high: 1, low: UInt64(index)),
            name: "m\(index)",
            colour: 1,
            cursor: (Double(index), 0),
            ink: inkBytes > 0 ? ("main", 1, 2, [UInt8](repeating: 7, count: inkBytes)) : nil
        )
    }

    private func encoded(_ presence: Presence) -> ByteBuffer {
        ByteBuffer(bytes: SyncCodec.encodePresence(presence))
    }

    private func decoded(_ frames: [ByteBuffer]) throws -> [ServerMessage] {
        try frames.map { try SyncCodec.decodeServer(Array($0.readableBytesView)) }
    }

    @Test func oneFrameForARunOneForALoneOneAndNothingForNone() throws {
        var run = PresenceRun()
        var frames: [ByteBuffer] = []
        run.close(into: &frames)
        #expect(frames.isEmpty)
        for index in 0..<3 { run.append(encoded(presence(index)), into: &frames) }
        run.close(into: &frames)
        run.append(encoded(presence(3)), into: &frames)
        run.close(into: &frames)
        #expect(try decoded(frames) == [.presences([presence(0), presence(1), presence(2)]), .presence(presence(3))])
    }

    @Test func aRunPastItsSizeLimitIsSplitInOrder() throws {
        var run = PresenceRun()
        var frames: [ByteBuffer] = []
        let large = (0..<6).map { presence($0, inkBytes: 60 << 10) }
        for item in large { run.append(encoded(item), into: &frames) }
        run.close(into: &frames)
        #expect(frames.count == 2)
        #expect(frames.allSatisfy { $0.readableBytes <= PresenceRun.maximumBytes + 16 })
        #expect(
            try decoded(frames).flatMap { message -> [Presence] in
                switch message {
                case .presence(let one): [one]
                case .presences(let many): many
                default: []
                }
            } == large
        )
    }
}
