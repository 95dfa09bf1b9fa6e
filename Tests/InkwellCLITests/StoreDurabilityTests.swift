import Foundation
import InkwellTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills a real writer process at random moments and checks that every change it reported survives.
///
/// `INKWELL_DURABILITY_KILLS` raises the number of kills (default 50); `INKWELL_SEED` replays a run.
@Suite struct StoreDurabilityTests {
    @Test func everyReportedChangeSurvivesSIGKILL() throws {
        let environment = ProcessInfo.processInfo.environment
        let kills = environment["INKWELL_DURABILITY_KILLS"].flatMap { Int($0) } ?? 50
        let seed = environment["INKWELL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("everyReportedChangeSurvivesSIGKILL: seed \(seed), \(kills) kills (INKWELL_SEED=\(seed) replays)")
        var random = SeededGenerator(seed: seed)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-durability-\(seed)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path

        var reported: Set<String> = []
        let start = ContinuousClock.now
        for round in 0..<kills {
            let writer = try WriterProcess(path: path, seed: random.next())
            // Let it write a random number of changes (none at all: killed while opening), then a little more.
            let lines = try writer.readLines(atLeast: Int.random(in: 0...12, using: &random))
            usleep(UInt32.random(in: 0...10_000, using: &random))
            let remaining = writer.killAbruptly()
            let committed = lines + remaining
            reported.formUnion(committed)

            let missing = reported.subtracting(try WriterProcess.verify(path, "round \(round)"))
            try #require(
                missing.isEmpty,
                "round \(round): \(missing.count) reported changes lost, e.g. \(missing.first!)"
            )
        }
        print("\(kills) kills, \(reported.count) changes reported and found, in \(ContinuousClock.now - start)")
        #expect(reported.count >= kills)
    }

    /// The same through the crash VFS: a kill also loses every write no fsync covered, or tears it, as
    /// a power cut does. A store that commits without syncing (WAL with `synchronous=NORMAL`) loses
    /// reported changes here. `INKWELL_POWER_CUTS` sets the cycles (default 20).
    @Test func everyReportedChangeSurvivesAPowerCut() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print(
            "everyReportedChangeSurvivesAPowerCut: seed \(seed), \(PowerCut.cycles) cuts (INKWELL_SEED=\(seed) replays)"
        )
        var random = SeededGenerator(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-power-\(seed)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path

        var reported: Set<String> = []
        var outcome = PowerCut.Outcome()
        for cycle in 0..<PowerCut.cycles {
            let writer = try WriterProcess(path: path, seed: random.next(), crashVFS: true)
            let lines = try writer.readLines(atLeast: Int.random(in: 0...12, using: &random))
            usleep(UInt32.random(in: 0...10_000, using: &random))
            reported.formUnion(lines + writer.killAbruptly())
            try PowerCut.settle(directory, seed: random.next(), into: &outcome)

            let missing = reported.subtracting(try WriterProcess.verify(path, "cycle \(cycle)"))
            try #require(
                missing.isEmpty,
                "cycle \(cycle): \(missing.count) reported changes lost to a power cut, e.g. \(missing.first!)"
            )
        }
        print("everyReportedChangeSurvivesAPowerCut: \(reported.count) changes reported and found; \(outcome)")
        #expect(reported.count >= PowerCut.cycles)
        // Cut mid-commit at least once: otherwise nothing unsynced was ever at stake.
        #expect(outcome.writes > 0, "no power cut found an unsynced write")
    }
}

/// The hidden `store-writer` command running in the background, its output read line by line.
final class WriterProcess {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    init(path: String, seed: UInt64, crashVFS: Bool = false) throws {
        process.executableURL = InkwellProcess.binary
        process.arguments =
            ["store-writer", "--path", path, "--seed", String(seed)] + (crashVFS ? ["--crash-vfs"] : [])
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The ids of the changes stored at `path`, once `store-writer --verify` found the store whole
    /// (SQLite's integrity check included). `when` names the moment in a failure's message.
    static func verify(_ path: String, _ when: String) throws -> [String] {
        let check = try InkwellProcess.run(["store-writer", "--path", path, "--verify"])
        try #require(check.status == 0, "\(when): \(check.standardError)")
        var stored = check.standardOutput.split(separator: "\n").map(String.init)
        try #require(stored.first == "integrity ok", "\(when): \(check.standardOutput.prefix(200))")
        stored.removeFirst()
        return stored
    }

    /// Blocks until `count` complete lines have arrived, or the process has ended.
    func readLines(atLeast count: Int) throws -> [String] {
        var lines: [String] = []
        while lines.count < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            lines += takeCompleteLines()
        }
        return lines
    }

    /// Sends SIGKILL, then returns the lines the process printed before it died.
    func killAbruptly() -> [String] {
        _ = kill(process.processIdentifier, SIGKILL)
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return takeCompleteLines()
    }

    /// Complete lines only: a line cut short by the kill was never fully reported.
    private func takeCompleteLines() -> [String] {
        guard let end = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let complete = buffer[..<end]
        buffer = Data(buffer[(end + 1)...])
        return complete.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
