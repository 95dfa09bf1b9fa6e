import Foundation
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

/// The server pings each sync connection every `--idle-timeout` and closes one that has not answered
/// the previous ping: a peer gone silent (a dead network, a suspended laptop, a client that never reads)
/// does not hold its socket and its rooms for ever, and an honest client, whose WebSocket answers pings
/// on its own, is never dropped for it.
@Suite(.serialized) struct IdleTimeoutTests {
    static let timeout = 0.5

    @Test func aPeerThatNeverAnswersAPingIsClosedAfterTheSecond() async throws {
        let scratch = try TemporaryDirectory("idle-timeout")
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            arguments: ["--idle-timeout", "\(Self.timeout)"]
        )
        let socket = try RawWebSocket(port: server.port, random: SeededGenerator(seed: 1))
        try socket.hello(device: ReplicaID(high: 1, low: 1))
        // It reads everything the server sends and answers nothing, pings included.
        let ending = socket.awaitEnding(since: .now, limit: .seconds(10), answeringClose: true)
        let closedAfter = try #require(ending.closedAfter, "still open after 10 s: \(ending)")
        #expect(closedAfter >= .milliseconds(500), "closed before it could miss a ping: \(ending)")
        #expect(closedAfter < .seconds(3), "closed long after its second missed ping: \(ending)")
        #expect(await server.stop() == 0)
    }

    @Test func aClientThatAnswersPingsStaysConnected() async throws {
        let scratch = try TemporaryDirectory("idle-timeout-honest")
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            arguments: ["--idle-timeout", "\(Self.timeout)"]
        )
        let client = try SyncClient(store: try Store.inMemory(), url: server.syncURL, rooms: ["quiet"])
        let running = Task { try await client.run() }
        try await client.waitUntilSynced(timeout: .seconds(10))
        // Eight idle timeouts with nothing to say: only the WebSocket's answers to pings go back.
        try await Task.sleep(for: .seconds(4))
        let statistics = await client.statistics
        #expect(statistics.connectionsOpened == 1, "reconnected \(statistics.connectionsOpened - 1) times")
        await client.stop()
        try await running.value
        #expect(await server.stop() == 0)
    }
}
