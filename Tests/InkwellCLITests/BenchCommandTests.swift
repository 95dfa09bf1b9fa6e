import Foundation
import Testing

@Suite struct BenchCommandTests {
    @Test func jsonOutputHasOneFigurePerLineForEveryWorkload() throws {
        let result = try InkwellProcess.run(["bench", "--json", "--scale", "0.001", "--runs", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        var figures: [String: Double] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let workload = try #require(object["workload"] as? String)
            let figure = try #require(object["figure"] as? String)
            let value = try #require(object["value"] as? Double)
            // At this tiny scale a count or a memory delta may be 0; nothing is negative or NaN.
            #expect(value.isFinite && value >= 0, "\(line)")
            figures["\(workload)/\(figure)"] = value
        }
        #expect(
            Set(figures.keys.map { String($0.prefix { $0 != "/" }) })
                == [
                    "hlc", "changelog", "lwwmap", "ink", "board_apply", "erase_at_point", "wire_points", "wire_packs",
                    "cold_open", "store",
                ]
        )
        #expect(figures["hlc/stamps_per_second"] ?? 0 > 0)
        #expect(figures["changelog/inserts_per_second_in_order"] ?? 0 > 0)
        #expect(figures["store/inserts_per_second_batches_of_1000"] ?? 0 > 0)
    }

    @Test func filterSelectsWorkloads() throws {
        let result = try InkwellProcess.run(["bench", "--scale", "0.001", "--runs", "1", "--filter", "lwwmap"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("lwwmap / merge_ms"))
        #expect(!result.standardOutput.contains("hlc"))
    }

    @Test func badOptionsAreRefusedInPlainWords() throws {
        let zeroRuns = try InkwellProcess.run(["bench", "--runs", "0"])
        #expect(zeroRuns.status != 0)
        #expect(zeroRuns.standardError.contains("--runs must be at least 1"))
        let noMatch = try InkwellProcess.run(["bench", "--scale", "0.001", "--runs", "1", "--filter", "nothing"])
        #expect(noMatch.status != 0)
        #expect(noMatch.standardError.contains("no workload matches --filter"))
    }

    @Test func helpListsTheCommands() throws {
        let result = try InkwellProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("bench"))
    }
}
