import Foundation
import InkwellBoardTesting
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Testing

/// The real server on a file system that fills up: it stops committing and says so, acknowledges only
/// what it made durable, keeps running, and a restart on the same folder (with space freed) serves every
/// acknowledged pack where it was acknowledged. A Swift replica's store on one fails the same way.
@Suite(.serialized) struct FullDiskTests {
    /// One push and the server's answer to it.
    struct Answered {
        let room: String
        let pack: PackID
        let bytes: [UInt8]
        /// The acknowledged position, or nil if the push was refused with `storageFailed`.
        let position: UInt64?
    }

    @Test(.timeLimit(.minutes(3)))
    func aFullDiskStopsCommitsAndLosesNoAcknowledgedPack() async throws {
        let folder = try TemporaryDirectory("full-disk")
        let disk = folder.url.appendingPathComponent("tmpfs")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard SmallDisk.mount(at: disk.path, megabytes: 2) else { return }
        defer { SmallDisk.unmount(disk.path) }
        let data = disk.appendingPathComponent("data")
        let seed = SeededGenerator.seedFromEnvironment()
        print("FullDiskTests seed \(seed) (INKWELL_SEED)")
        var random = SeededGenerator(seed: seed)

        let server = try await ServerProcess.start(data: data, logLevel: "error")
        // Four connections push one pack at a time each, so their pushes share commits, until the disk is
        // full; then each pushes three more.
        var pushers: [Task<[Answered], any Error>] = []
        for index in 0..<4 {
            let socket = try await Self.connect(to: server)
            let seed = random.next()
            pushers.append(Task { try await Self.pushUntilRefused(on: socket, room: "room-\(index % 2)", seed: seed) })
        }
        var answers: [Answered] = []
        for pusher in pushers { answers += try await pusher.value }
        let acknowledged = answers.filter { $0.position != nil }
        let refused = answers.filter { $0.position == nil }
        print("FullDiskTests: \(answers.count) pushes, \(acknowledged.count) acknowledged before the disk filled")
        #expect(acknowledged.count > 10, "the disk filled before the server had stored anything")
        #expect(refused.count >= 4 * 4)
        for (room, answers) in Dictionary(grouping: acknowledged, by: \.room) {
            let positions = answers.compactMap(\.position)
            #expect(Set(positions).count == positions.count, "\(room): two packs acknowledged at one position")
        }

        #expect(server.child.isRunning, "the server died: \(server.child.standardError.suffix(2_000))")
        let health = try #require(server.get("/healthz"))
        #expect(health.status == 503)
        #expect(health.body.contains(#""status":"storage_failed""#), "\(health.body)")
        #expect(health.body.contains("full"), "the reason says the disk is full: \(health.body)")
        let metrics = try #require(server.get("/metrics")).body.split(separator: "\n").map(String.init)
        #expect(metrics.contains("inkwell_storage_failed 1.0"))
        #expect(metrics.contains { $0.hasPrefix(#"inkwell_storage_errors_total{kind="disk_full"} "#) })
        #expect(
            server.child.standardError.components(separatedBy: "the pack log has failed").count - 1 == 1,
            "the failure is logged once: \(server.child.standardError.suffix(2_000))"
        )

        // Space comes back, but the server stays failed until it is restarted.
        SmallDisk.resize(disk.path, megabytes: 32)
        let late = try await Self.connect(to: server)
        var lateRandom = SeededGenerator(seed: random.next())
        let lateAnswer = try await Self.push(FullDiskPacks.make(room: "room-0", using: &lateRandom), on: late)
        #expect(lateAnswer.position == nil, "a push after the failure was acknowledged")
        #expect(server.get("/healthz")?.status == 503)
        await late.close()
        #expect(await server.stop() == 0)

        // Restarted on the same folder, it serves what it acknowledged and takes what it refused.
        let restarted = try await ServerProcess.start(data: data, logLevel: "error")
        #expect(restarted.healthStatus() == 200)
        let again = try await Self.connect(to: restarted)
        let retried = try #require(refused.first)
        let retriedAnswer = try await Self.push((retried.pack, retried.bytes), room: retried.room, on: again)
        #expect(retriedAnswer.position != nil, "a refused pack pushed again after the restart is stored")
        await again.close()
        #expect(await restarted.stop() == 0)

        let stored = try await Self.storedPacks(in: data, rooms: Set(answers.map(\.room)))
        for answer in acknowledged + [retriedAnswer] {
            guard let position = answer.position else { continue }
            #expect(
                stored[answer.room]?[position] == answer.bytes,
                "acknowledged \(answer.pack) missing at \(position)"
            )
        }
        // Nothing else: the commits that failed left no pack behind.
        #expect(stored.values.map(\.count).reduce(0, +) == acknowledged.count + 1)
    }

    /// Opens a socket and says hello.
    static func connect(to server: ServerProcess) async throws -> SyncSocket {
        try await SyncSocket.greeted(url: server.syncURL.absoluteString, agent: "full-disk-test")
    }

    /// Pushes packs of 1–6 KB one at a time, each after the answer to the last, until one is refused;
    /// then three more.
    static func pushUntilRefused(on socket: SyncSocket, room: String, seed: UInt64) async throws -> [Answered] {
        var random = SeededGenerator(seed: seed)
        var answers: [Answered] = []
        var messages = socket.messages.makeAsyncIterator()
        while answers.filter({ $0.position == nil }).count < 4 {
            guard answers.count < 5_000 else { throw ChildProcess.Failure("the disk never filled") }
            let pack = FullDiskPacks.make(
                room: room,
                size: Int.random(in: 1_000...6_000, using: &random),
                using: &random
            )
            answers.append(try await push(pack, room: room, on: socket, messages: &messages))
        }
        return answers
    }

    /// Pushes one pack on a fresh socket's stream and waits for its answer.
    static func push(
        _ pack: (id: PackID, bytes: [UInt8]),
        room: String = "room-0",
        on socket: SyncSocket
    ) async throws
        -> Answered
    {
        var messages = socket.messages.makeAsyncIterator()
        return try await push(pack, room: room, on: socket, messages: &messages)
    }

    /// Pushes one pack and waits for its ack or its `storageFailed` error, whichever comes.
    static func push(
        _ pack: (id: PackID, bytes: [UInt8]),
        room: String,
        on socket: SyncSocket,
        messages: inout AsyncThrowingStream<ServerMessage, any Error>.AsyncIterator
    ) async throws -> Answered {
        try await socket.send(.push(room: room, pack: pack.bytes))
        while let message = try await messages.next() {
            switch message {
            case .ack(let acknowledgedRoom, let acknowledged, let position):
                guard acknowledged == pack.id, acknowledgedRoom == room else {
                    throw ChildProcess.Failure("ack of \(acknowledged) in \(acknowledgedRoom) for a push of \(pack.id)")
                }
                return Answered(room: room, pack: pack.id, bytes: pack.bytes, position: position)
            case .error(let code, let text, let fatal, _):
                guard code == ErrorCode.storageFailed.rawValue, !fatal else {
                    throw ChildProcess.Failure("error \(code) (fatal: \(fatal)): \(text)")
                }
                return Answered(room: room, pack: pack.id, bytes: pack.bytes, position: nil)
            default:
                continue
            }
        }
        throw ChildProcess.Failure("the connection ended before the push was answered")
    }

    /// A Swift replica's store on the same small disk: a writer that fills it stops with an error and no
    /// crash, every change it reported saved is there once space returns, and writing goes on.
    @Test(.timeLimit(.minutes(3)))
    func aFullDiskStopsAReplicaStoreAndLosesNothingItReportedSaved() throws {
        let folder = try TemporaryDirectory("full-disk-store")
        let disk = folder.url.appendingPathComponent("tmpfs")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard SmallDisk.mount(at: disk.path, megabytes: 2) else { return }
        defer { SmallDisk.unmount(disk.path) }
        let path = disk.appendingPathComponent("store.sqlite").path
        let seed = SeededGenerator.seedFromEnvironment()
        print("FullDiskTests store seed \(seed) (INKWELL_SEED)")

        // Unbounded: it writes until the disk refuses.
        let filled = try InkwellProcess.run(["store-writer", "--path", path, "--seed", "\(seed)"])
        let reported = Set(filled.standardOutput.split(separator: "\n").map(String.init))
        #expect(filled.status == 1, "the writer should stop with an error: \(filled.status) \(filled.standardError)")
        #expect(filled.standardError.localizedCaseInsensitiveContains("full"), "\(filled.standardError)")
        #expect(reported.count > 10, "it stopped after \(reported.count) changes")

        SmallDisk.resize(disk.path, megabytes: 16)
        let more = try InkwellProcess.run(["store-writer", "--path", path, "--seed", "\(seed &+ 1)", "--count", "20"])
        #expect(more.status == 0, "\(more.standardError)")
        let stored = try WriterProcess.verify(path, "after the disk grew")
        let missing = reported.union(more.standardOutput.split(separator: "\n").map(String.init)).subtracting(stored)
        #expect(missing.isEmpty, "\(missing.count) changes reported saved are gone")
        print("FullDiskTests store: \(reported.count) changes before the disk filled, 20 after it grew, all there")
    }

    /// Every pack the stopped server's log holds, by room and position.
    static func storedPacks(in data: URL, rooms: Set<String>) async throws -> [String: [UInt64: [UInt8]]] {
        let log = try PackLog(path: data.appendingPathComponent("packs.sqlite").path)
        var stored: [String: [UInt64: [UInt8]]] = [:]
        for room in rooms {
            for pack in try await log.packs(room: room, after: 0, maximumBytes: .max) {
                stored[room, default: [:]][pack.serverSeq] = pack.bytes
            }
        }
        return stored
    }
}

/// The packs this test pushes: one change each, by a new author each, stamped now.
enum FullDiskPacks {
    static func make(
        room: String,
        size: Int = 64,
        using random: inout SeededGenerator
    ) -> (id: PackID, bytes: [UInt8]) {
        TestStrokes.pack(room: room, size: size, using: &random)
    }
}

/// A tmpfs of a few megabytes mounted for one test: a real file system that fills up. Mounting needs
/// root, as tests have here and in CI.
enum SmallDisk {
    /// Mounts it at `path`. Where mounting is not permitted, the test fails in CI (`CI=true`) and is
    /// skipped elsewhere, saying so.
    static func mount(at path: String, megabytes: Int) -> Bool {
        let (status, output) = run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path])
        if status == 0 { return true }
        let why = "mounting a \(megabytes) MB tmpfs failed (mount exited \(status): \(output))"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(why); CI runs the tests as root, where it must work")
        } else {
            print("FullDiskTests SKIPPED: \(why). It needs root; in CI (CI=true) this fails instead.")
        }
        return false
    }

    /// Gives the mounted file system more room, as an operator freeing space would.
    static func resize(_ path: String, megabytes: Int) {
        let (status, output) = run(["mount", "-o", "remount,size=\(megabytes)m", path])
        if status != 0 { Issue.record("remount failed (\(status)): \(output)") }
    }

    /// Unmounts it, even with files still open (lazily).
    static func unmount(_ path: String) {
        _ = run(["umount", "-l", path])
    }

    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (process.terminationStatus, text.replacingOccurrences(of: "\n", with: " "))
    }
}
