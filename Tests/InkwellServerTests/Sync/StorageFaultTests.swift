import Foundation
import GRDB
import InkwellClient
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellServer

/// A server whose pack log cannot be read: a subscriber is told so and closed instead of being sent a
/// room that looks empty, and the server stops taking pushes and says why.
@Suite struct StorageFaultTests {
    @Test func aSubscriberWhoseRoomCannotBeReadIsToldAndClosedNotSentAnEmptyRoom() async throws {
        let server = try await RunningServer.start(store: .sqlite)
        let writer = try await server.peer()
        var random = SeededGenerator(seed: 12)
        for index in 0..<300 {
            let room = index < 150 ? "b" : "c"
            try await writer.send(
                .push(room: room, pack: TestPacks.make(room: room, size: 3_000, using: &random).bytes)
            )
        }
        for _ in 0..<300 { _ = try await writer.next(where: \.isAck) }
        // The packs move into the log's main file, as SQLite's own checkpoints move them; a later commit
        // stays in the WAL.
        try await server.packLog().pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try await writer.send(.push(room: "a", pack: TestPacks.make(room: "a", using: &random).bytes))
        _ = try await writer.next(where: \.isAck)
        // A follower of c: the server's readers have read the file.
        let follower = try await server.peer()
        try await follower.subscribe("c")
        _ = try await follower.next { if case .progress("c", 150, 0, 0) = $0 { true } else { false } }

        try PackLogFaultTests.losePages(of: server.directory.appendingPathComponent("packs.sqlite").path)
        let reader = try await server.peer()
        // Not the helper: the answer is the error, as soon as a read of the room fails. The room's record
        // may still be read from a reader's cache (the page that says the room exists), so its access
        // may come first; nothing of its packs or progress may.
        try await reader.send(.subscribe(room: "b", after: 0, capability: ""))
        var first = try await reader.next()
        if case .access("b", _, _) = first { first = try await reader.next() }
        guard case .error(let code, _, let fatal, _) = first else { throw TestFailure("\(first) before an error") }
        #expect(code == ErrorCode.storageFailed.rawValue && fatal)
        #expect(await reader.socket.closure.code == CloseCode.internalError.rawValue)

        // The log failed: pushes are refused (not fatal: the client keeps its packs) and health says why.
        try await writer.send(.push(room: "a", pack: TestPacks.make(room: "a", using: &random).bytes))
        let answer = try await writer.next { $0.isAck || $0.isError }
        guard case .error(ErrorCode.storageFailed.rawValue, _, false, "a") = answer else {
            throw TestFailure("a push to a failed log was answered \(answer)")
        }
        let health = try await RawHTTP.exchange(
            port: server.port,
            head: "GET /healthz HTTP/1.1\r\nHost: localhost:\(server.port)\r\nConnection: close\r\n\r\n"
        )
        #expect(health.status == 503)
        let body = String(decoding: health.body, as: UTF8.self)
        #expect(body.contains(#""status":"storage_failed""#), "\(body)")
        #expect(server.server.metricsExposition.contains(#"inkwell_storage_errors_total{kind="corrupt"} "#))
        await server.stop()
    }

    @Test func aCatchUpWhoseNextPacksCannotBeReadEndsWithAnErrorNotWrongPacks() async throws {
        var limits = ServerLimits()
        limits.catchUpFrameBytes = 64 << 10
        let server = try await RunningServer.start(limits: limits, store: .sqlite)
        let writer = try await server.peer()
        var random = SeededGenerator(seed: 13)
        // 20 MB: more than the socket's buffers hold while the reader does not read.
        var pushed: [[UInt8]] = []
        for _ in 0..<200 {
            let pack = TestPacks.make(room: "big", size: 100_000, using: &random)
            pushed.append(pack.bytes)
            try await writer.send(.push(room: "big", pack: pack.bytes))
        }
        for _ in 0..<200 { _ = try await writer.next(where: \.isAck) }
        try await server.packLog().pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try await writer.send(.push(room: "a", pack: TestPacks.make(room: "a", using: &random).bytes))
        _ = try await writer.next(where: \.isAck)

        // The catch-up starts, fills the socket and waits for the reader; meanwhile the log's pages go.
        let reader = try await server.peer()
        reader.socket.pauseReading()
        try await reader.send(.subscribe(room: "big", after: 0, capability: ""))
        try await Task.sleep(for: .milliseconds(500))
        try PackLogFaultTests.losePages(of: server.directory.appendingPathComponent("packs.sqlite").path)
        reader.socket.resumeReading()

        var received: [StoredPack] = []
        reading: while true {
            switch try await reader.next() {
            case .progress("big", 200, _, 200):
                #expect(received.isEmpty, "progress after packs")
            case .packs("big", let packs, _):
                received += packs
            case .access("big", .edit, false):
                #expect(received.isEmpty, "access after packs")
            case .error(let code, _, let fatal, _):
                #expect(code == ErrorCode.storageFailed.rawValue && fatal)
                break reading
            case let other:
                throw TestFailure("unexpected \(other)")
            }
        }
        print("StorageFaultTests: \(received.count) of 200 packs sent before the log's pages went")
        #expect(received.count < 200, "the whole room was sent")
        #expect(received.map(\.serverSeq) == Array((0..<UInt64(received.count)).map { $0 + 1 }))
        #expect(received.map(\.bytes) == Array(pushed.prefix(received.count)), "a pack was sent other than stored")
        #expect(await reader.socket.closure.code == CloseCode.internalError.rawValue)
        await server.stop()
    }
}
