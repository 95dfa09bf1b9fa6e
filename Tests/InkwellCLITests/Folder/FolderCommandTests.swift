import Foundation
import InkwellTesting
import Testing

/// `inkwell join --folder`, as people use it: two peers, each with a folder of its own, which `rsync`
/// copies between them. A copy killed in the middle of a file and a sync tool's conflict copies leave
/// nothing lost and nothing doubled once the copies complete.
@Suite(.serialized) struct FolderCommandTests {
    /// Runs rsync to the end. - Throws: when it fails.
    static func rsync(_ arguments: [String]) throws {
        let process = try Self.start(arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FolderTestError("rsync \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsync")
        process.arguments = arguments
        try process.run()
        return process
    }

    struct FolderTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `room R board B: N changes, S strokes, hash H`: N.
    static func changes(in line: String) -> Int? {
        line.split(separator: " ").firstIndex(of: "changes,").flatMap { Int(line.split(separator: " ")[$0 - 1]) }
    }

    static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func peersConvergeThroughFoldersCopiedByAnInterruptedRsyncAndConflictCopies() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/rsync") else {
            try #require(
                ProcessInfo.processInfo.environment["CI"] == nil,
                "CI installs rsync (Scripts/install-packages.sh)"
            )
            print("FolderCommandTests: skipped, rsync is not installed (bash Scripts/install-packages.sh installs it)")
            return
        }
        let root = try TemporaryDirectory("folder-command")
        let (folderA, folderB) = (root.url.appendingPathComponent("a"), root.url.appendingPathComponent("b"))
        for folder in [folderA, folderB] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        func join(_ folder: URL, _ data: String, _ extra: [String] = []) async throws -> String {
            let result = try await InkwellProcess.running(
                [
                    "join", "folder-room", "--folder", folder.path, "--data",
                    root.url.appendingPathComponent(data).path, "--wait-synced", "--timeout", "60",
                ] + extra
            )
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try await join(folderA, "data-a", ["--draw", "1000", "--seed", "1"])
        _ = try await join(folderB, "data-b", ["--draw", "300", "--seed", "2"])
        let fileA = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folderA.path).first { $0.hasSuffix(".ink") }
        )
        let fileB = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folderB.path).first { $0.hasSuffix(".ink") }
        )
        let full = Self.size(folderA.appendingPathComponent(fileA))

        // Slowed so the copy is caught in the middle of the file, then killed there.
        let copying = try Self.start(["-rt", "--inplace", "--bwlimit=60", folderA.path + "/", folderB.path + "/"])
        let deadline = ContinuousClock.now + .seconds(60)
        var cut = 0
        while copying.isRunning, ContinuousClock.now < deadline {
            cut = Self.size(folderB.appendingPathComponent(fileA))
            if cut > 0, cut < full { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(copying.processIdentifier, SIGKILL)
        copying.waitUntilExit()
        cut = Self.size(folderB.appendingPathComponent(fileA))
        try #require(cut > 0 && cut < full, "rsync was stopped inside the file: \(cut) of \(full) bytes")

        // Conflict copies, as sync tools make them: of A's file cut short, and of B's own file.
        let stemA = String(fileA.dropLast(4))
        try FileManager.default.copyItem(
            at: folderB.appendingPathComponent(fileA),
            to: folderB.appendingPathComponent("\(stemA) (1).ink")
        )
        let stemB = String(fileB.dropLast(4))
        try FileManager.default.copyItem(
            at: folderB.appendingPathComponent(fileB),
            to: folderB.appendingPathComponent("\(stemB) (conflicted copy).ink")
        )

        let partial = try await join(folderB, "data-b")
        let partialChanges = try #require(Self.changes(in: partial), "\(partial)")
        #expect(partialChanges > 300 && partialChanges < 1_300, "B read A's file up to the cut: \(partial)")

        // The copies complete, both ways; B draws a little more meanwhile.
        _ = try await join(folderB, "data-b", ["--draw", "5", "--seed", "3"])
        try Self.rsync(["-rt", folderA.path + "/", folderB.path + "/"])
        try Self.rsync(["-rt", folderB.path + "/", folderA.path + "/"])
        let a = try await join(folderA, "data-a")
        let b = try await join(folderB, "data-b")
        #expect(a.contains("1305 changes, 1305 strokes"), "\(a)")
        #expect(a == b, "A: \(a)\nB: \(b)")
    }
}
