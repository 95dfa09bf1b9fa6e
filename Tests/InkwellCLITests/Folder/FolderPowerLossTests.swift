import Foundation
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// `inkwell join --folder` on the crash VFS (its store and its file in the folder), killed while it draws
/// and writes, its disk then left as a power cut would leave it: every write no fsync covered dropped,
/// kept or torn. No change the outbox let go of is missing from the folder, the file reads whole up to
/// its last record, and nothing is in it that the store does not hold. `INKWELL_POWER_CUTS` sets the
/// cycles (default 20); `INKWELL_SEED` replays a run.
@Suite(.serialized) struct FolderPowerLossTests {
    static let room = "power-room"

    @Test func noChangeTheOutboxLetGoOfIsLostFromTheFolderToAPowerCut() async throws {
        var random = SeededGenerator(seed: PowerCut.seed(of: "FolderPowerLossTests"))
        let root = try TemporaryDirectory("folder-power")
        let folder = root.url.appendingPathComponent("folder")
        let data = root.url.appendingPathComponent("data")
        for directory in [folder, data] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        var outcome = PowerCut.Outcome()
        var written = 0
        for cycle in 0..<PowerCut.cycles {
            // Every other cycle the power goes off in the middle of the peer's writing (its N-th write or
            // sync of its file: half of them between a write and its sync); the rest, wherever the kill lands.
            let planned = cycle % 2 == 0 ? ["--crash-vfs-cut-after", "\(Int.random(in: 1...16, using: &random))"] : []
            let writer = try ChildProcess(
                [
                    "join", Self.room, "--folder", folder.path, "--data", data.path, "--crash-vfs", "--draw", "100000",
                    "--rate", "400", "--seed", "\(cycle + 1)",
                ] + planned
            )
            try await Task.sleep(for: .milliseconds(Int.random(in: 400...1_500, using: &random)))
            await writer.kill()
            if let report = writer.crashReport {
                throw ChildProcess.Failure("the peer crashed before it was killed:\n\(report.prefix(8_000))")
            }
            try PowerCut.settle(folder, seed: random.next(), into: &outcome)
            try PowerCut.settle(data, seed: random.next(), into: &outcome)
            written = try Self.check(folder: folder, data: data, cycle: cycle)
        }
        print("FolderPowerLossTests: \(written) changes in the folder, none lost; \(outcome)")
        #expect(written > PowerCut.cycles, "the peer wrote to the folder")
        #expect(outcome.writes > 0, "no power cut found an unsynced write")

        // Once the peer has run to the end, a new one reads the folder to the same board.
        let last = try await InkwellProcess.running([
            "join", Self.room, "--folder", folder.path, "--data", data.path, "--wait-synced",
        ])
        #expect(last.status == 0, "\(last.standardError)")
        let reader = try await InkwellProcess.running(["join", Self.room, "--folder", folder.path, "--wait-synced"])
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(
            !last.standardOutput.isEmpty && reader.standardOutput == last.standardOutput,
            "\(reader.standardOutput) \(last.standardOutput)"
        )
    }

    /// The folder and the store after a cut: every change of the peer's timeline is queued or in its file,
    /// the file reads whole records up to a clean stop, and holds nothing past the timeline's end.
    /// - Returns: the changes in the file.
    private static func check(folder: URL, data: URL, cycle: Int) throws -> Int {
        let store = try Store(directory: data.path)
        let replica = try store.replica(for: room)
        let last = try store.lastSeq(of: replica)
        let queued = Set(try store.outbox().filter { $0.id.replica == replica }.map(\.id.seq))
        let path = folder.appendingPathComponent("\(replica).ink").path
        var inFile = Set<UInt64>()
        if let contents = FileManager.default.contents(atPath: path) {
            let bytes = [UInt8](contents)
            let chunk = FolderLogReader.read(bytes[...], at: 0)
            switch chunk.stop {
            case .end, .incomplete: break
            case .damaged(let reason):
                throw ChildProcess.Failure("cycle \(cycle): the peer's file is damaged after a cut: \(reason)")
            case .newerVersion(let version):
                throw ChildProcess.Failure("cycle \(cycle): the peer's file claims version \(version) after a cut")
            }
            for entry in chunk.entries {
                guard case .pack(let packBytes) = entry.record else { continue }
                let pack = try PackCodec.decode(packBytes, room: room, understanding: .max, key: nil)
                for encoded in pack.changes {
                    let change = try ChangeCodec.decode(encoded)
                    try #require(change.id.replica == replica, "cycle \(cycle): another timeline in the peer's file")
                    inFile.insert(change.id.seq)
                }
            }
        }
        let missing = (0..<last).map { $0 + 1 }.filter { !queued.contains($0) && !inFile.contains($0) }
        try #require(
            missing.isEmpty,
            "cycle \(cycle): \(missing.count) of \(last) changes left the outbox and are not in the folder"
        )
        try #require(inFile.allSatisfy { $0 <= last }, "cycle \(cycle): the folder holds changes the store does not")
        return inFile.count
    }
}
