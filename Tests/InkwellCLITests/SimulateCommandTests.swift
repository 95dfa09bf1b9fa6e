import Foundation
import InkwellSimulation
import Testing

/// `inkwell simulate`: seeds pass, a seed replays to the same trace, and each bug put in on purpose is
/// caught, with a replay command that reproduces it. CI runs 1,000 seeds besides (`.ci/run`).
@Suite struct SimulateCommandTests {
    @Test func seedsPassAndASeedReplaysToTheSameTrace() throws {
        let run = try InkwellProcess.run(["simulate", "--seeds", "8", "--seed", "1", "--verbose"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("8 of 8 seeds passed"), "\(run.standardOutput)")
        let traces = Self.traces(in: run.standardOutput)
        #expect(traces.count == 8)
        // Seeds run side by side on every core; each replays alone to the same trace.
        for seed in [1, 5, 8] as [UInt64] {
            let again = try InkwellProcess.run(["simulate", "--seed", "\(seed)"])
            #expect(
                Self.traces(in: again.standardOutput)[seed] == traces[seed],
                "seed \(seed): \(again.standardOutput)"
            )
        }
        #expect(Set(traces.values).count == traces.count, "different seeds, different runs")
        // The faults happened, or passing would say nothing: each figure of the summary is counted.
        let summary = try #require(run.standardOutput.split(separator: "\n").last { $0.contains("seeds passed") })
        for figure in [
            "drops", "partitions", "server crashes", "device crashes", "clock jumps", "full or failing disks",
            "pushes refused for storage", "strokes not saved", "pushes refused by a full room", "snapshots kept",
            "logs compacted", "positions dropped",
        ] {
            #expect(Self.count(of: figure, in: String(summary)) > 0, "no \(figure) in: \(summary)")
        }
    }

    /// The number before `figure` in the summary line ("…, 4 drops, …"); 0 when it is not there.
    static func count(of figure: String, in summary: String) -> Int {
        guard let range = summary.range(of: " \(figure)") else { return 0 }
        let number = summary[..<range.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(number.reversed())) ?? 0
    }

    /// Seeds that once failed in a long run, each for a bug since fixed:
    /// - 3543, a device's snapshot that stood for a change it held past a gap (a room whose quota refused an
    ///   author's change and took the next, which it no longer does), so the log dropped the change's pack;
    /// - 7187, a device that took a snapshot in place of dropped packs (a rebase) and then made one that left
    ///   out what the first stood for;
    /// - 51272 and 53250, a device whose full disk failed to take acknowledged changes off its outbox while
    ///   its cursor, kept across the reconnection, had passed their pack: the pack never came back, and its
    ///   snapshot stood for that position without its own changes, so the log dropped them;
    /// - 14852, a device that held another author's change from a live pack past a gap in its log, after
    ///   the position it was then rebased to, refused the rebase for leaving that change out and stopped
    ///   following the room.
    @Test(arguments: [3543, 7187, 14852, 51272, 53250] as [UInt64])
    func aSeedThatOnceFailedPasses(_ seed: UInt64) throws {
        let run = try InkwellProcess.run(["simulate", "--seed", "\(seed)"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    }

    @Test(arguments: InjectedBug.allCases)
    func aBugPutInOnPurposeIsCaughtAndItsReplayReproducesIt(_ bug: InjectedBug) throws {
        let run = try InkwellProcess.run(["simulate", "--seeds", "40", "--seed", "7", "--inject", bug.rawValue])
        #expect(run.status != 0, "\(bug.rawValue) was not caught in 40 seeds: \(run.standardOutput)")
        let replay = try #require(
            run.standardOutput.split(separator: "\n").first { $0.contains("replay: inkwell simulate") },
            "no replay command in \(run.standardOutput)"
        )
        let words = replay.split(separator: "replay: inkwell ")[1].split(separator: " ").map(String.init)
        let seed = try #require(words.firstIndex(of: "--seed").flatMap { UInt64(words[$0 + 1]) })
        #expect(words.contains(bug.rawValue))
        let again = try InkwellProcess.run(words)
        #expect(again.status != 0, "the replay passed: \(again.standardOutput)")
        #expect(Self.traces(in: again.standardOutput)[seed] == Self.failedTraces(in: run.standardOutput)[seed])
    }

    @Test func optionsOutOfRangeAreRefused() throws {
        for arguments in [["--seeds", "0"], ["--clients", "0"], ["--inject", "nothing"]] {
            let run = try InkwellProcess.run(["simulate"] + arguments)
            #expect(run.status != 0, "\(arguments) was taken")
        }
    }

    /// "seed S: passed|FAILED, trace T, …" lines, by seed.
    static func traces(in output: String) -> [UInt64: String] {
        var traces: [UInt64: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("seed ") && line.contains(", trace ") {
            let words = line.split(separator: " ")
            guard let seed = UInt64(words[1].dropLast()), let index = words.firstIndex(of: "trace") else { continue }
            traces[seed] = String(words[index + 1].prefix { $0 != "," })
        }
        return traces
    }

    /// "seed S FAILED (trace T):" lines, by seed.
    static func failedTraces(in output: String) -> [UInt64: String] {
        var traces: [UInt64: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("seed ") && line.contains(" FAILED (trace ") {
            let words = line.split(separator: " ")
            guard let seed = UInt64(words[1]) else { continue }
            traces[seed] = String(words[4].prefix { $0 != ")" })
        }
        return traces
    }
}
