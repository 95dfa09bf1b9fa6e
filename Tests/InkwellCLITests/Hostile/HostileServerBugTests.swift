import Foundation
import InkwellTesting
import Testing

/// Minimal tests for hostile-input bugs the server had (and, while one is open, for that bug as a known
/// issue): each makes one or two connections against a fresh server and checks one documented behaviour.
@Suite struct HostileServerBugTests {
    /// RFC 6455 §5.1: "The server MUST close the connection upon receiving a frame that is not masked."
    @Test func unmaskedFrameIsRefusedAndItsPushNotStored() async throws {
        let hostile = HostileCase(name: "unmasked push", expected: [HostileCase.protocolError]) { context in
            let socket = try context.connectAndHello()
            socket.followUp = []
            let push = context.pushFrame()
            return .init(
                socket: socket,
                sentAt: socket.offend(RawFrame(opcode: RawFrame.binary, payload: push, maskKey: nil).bytes)
            )
        }
        let observation = try await Self.alone(hostile, answersClose: true)
        #expect(HostileRun.problem(with: observation) == nil)
    }

    /// A data frame with RSV1 set (no extension was negotiated), then a valid push in the same write: the
    /// WebSocket layer answers the first with close 1002, so the push must never reach the session.
    @Test func pushAfterAFrameWithReservedBitsIsNotStored() async throws {
        let hostile = HostileCase(name: "reserved bits, then a push", expected: [HostileCase.protocolError]) {
            context in
            let socket = try context.connectAndHello()
            let bad = RawFrame(
                opcode: RawFrame.binary,
                payload: [0x0A, 0x00],
                reserved: 0b100,
                maskKey: socket.maskKey()
            )
            return .init(socket: socket, sentAt: socket.offend(bad.bytes))
        }
        let observation = try await Self.alone(hostile, answersClose: true)
        #expect(HostileRun.problem(with: observation) == nil)
    }

    /// The same violation from a peer that neither answers the close nor sends anything more: the server
    /// must still drop it within a second.
    @Test func peerIgnoringTheCloseAfterReservedBitsIsDropped() async throws {
        let hostile = HostileCase(name: "reserved bits, then silence", expected: [HostileCase.protocolError]) {
            context in
            let socket = try context.connectAndHello()
            socket.followUp = []
            let bad = RawFrame(
                opcode: RawFrame.binary,
                payload: [0x0A, 0x00],
                reserved: 0b100,
                maskKey: socket.maskKey()
            )
            return .init(socket: socket, sentAt: socket.offend(bad.bytes))
        }
        let observation = try await Self.alone(hostile, answersClose: false)
        #expect(HostileRun.problem(with: observation) == nil)
    }

    /// A TLS ClientHello sent to the plain HTTP port: no HTTP parser accepts it, so the server answers 400
    /// and closes instead of holding the socket.
    @Test func bytesThatAreNotHTTPAreAnsweredWith400AndClosed() async throws {
        let hostile = HostileCase(name: "not HTTP", expected: []) { context in
            let socket = try RawWebSocket(unupgradedPort: context.port, random: context.random)
            let bytes: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
            return .init(socket: socket, sentAt: socket.offend(bytes))
        }
        let observation = try await Self.alone(hostile, answersClose: false)
        #expect(HostileRun.problem(with: observation) == nil)
        let response = (try? observation.ending.get().response) ?? ""
        #expect(response.hasPrefix("HTTP/1.1 400"), "answered \(response.prefix(80))")
    }

    /// A socket that sends nothing, and one that stops halfway through its request head, are closed at
    /// the header deadline (ServerLimits.headerTimeout, 5 s): not before, and not much after.
    @Test func socketsThatNeverFinishARequestHeadAreClosedAtTheHeaderDeadline() async throws {
        let observations = try await Self.alone(
            [HostileCase.silentBeforeHTTP, HostileCase.halfARequestHead],
            answersClose: false
        )
        for observation in observations {
            #expect(HostileRun.problem(with: observation) == nil, "\(observation.name)")
            let closedAfter = try? observation.ending.get().closedAfter
            #expect(closedAfter.map { $0 >= .milliseconds(4_500) } == true, "\(observation.name): \(observation)")
        }
    }

    /// Runs one connection against a fresh server, stops the server, and audits its log.
    static func alone(_ hostile: HostileCase, answersClose: Bool) async throws -> HostileRun.Observation {
        try await alone([hostile], answersClose: answersClose)[0]
    }

    /// Runs one connection of each case, at once, against a fresh server, stops the server, and audits
    /// its log: every test is held to the audit (nothing the attacks sent is stored, no room or watermark
    /// they leave behind), whatever else it checks.
    static func alone(_ cases: [HostileCase], answersClose: Bool) async throws -> [HostileRun.Observation] {
        let seed = SeededGenerator.seedFromEnvironment()
        print("\(cases.map(\.name)): seed \(seed) (INKWELL_SEED=\(seed) replays)")
        let scratch = try TemporaryDirectory("hostile-bug")
        let server = try await ServerProcess.start(data: scratch.url.appendingPathComponent("server"))
        let ledger = HostileLedger()
        ledger.record(room: "bug")
        let plan = cases.enumerated().map { index, hostile in
            HostileRun.Planned(
                hostile: hostile,
                room: "bug",
                seed: seed &+ UInt64(index),
                delay: .zero,
                answersClose: answersClose
            )
        }
        let observations = await HostileRun.run(plan, port: server.port, ledger: ledger)
        for observation in observations {
            print(
                "\(observation.name): \((try? observation.ending.get()).map(String.init(describing:)) ?? "no attack")"
            )
        }
        #expect(server.child.isRunning)
        #expect(await server.child.terminate() == 0)
        var findings = HostileFindings()
        try await findings.audit(data: server.data, honestRoom: nil, ledger: ledger)
        #expect(findings.byCase.isEmpty, "the server's log after the attacks: \(findings.byCase)")
        return observations
    }
}
