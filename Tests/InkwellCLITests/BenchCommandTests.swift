import Foundation
import Testing

@Suite struct BenchCommandTests {
    @Test func jsonOutputHasOnePositiveFigurePerLine() throws {
        let result = try InkwellProcess.run(["bench", "--json", "--scale", "0.001", "--runs", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count >= 7)
        var workloads: Set<String> = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let workload = try #require(object["workload"] as? String)
            #expect(object["figure"] is String)
            let value = try #require(object["value"] as? Double)
            #expect(value > 0, "\(line)")
            workloads.insert(workload)
        }
        #expect(workloads == ["hlc", "changelog", "lwwmap"])
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
