import Foundation
import Testing

@Suite struct BenchCommandTests {
    @Test func jsonOutputHasOneFigurePerLineForEveryWorkload() throws {
        let result = try bench(["engine", "--json", "--scale", "0.001", "--runs", "1"])
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
                    "cold_open", "store", "wire_authentication", "wire_seal", "device_history", "ink_geometry",
                    "spatial_index", "eraser_step",
                ]
        )
        #expect(figures["wire_authentication/one_point_change_signature_bytes_per_change"] == 100)
        #expect(figures["hlc/stamps_per_second"] ?? 0 > 0)
        #expect(figures["changelog/inserts_per_second_in_order"] ?? 0 > 0)
        #expect(figures["store/inserts_per_second_batches_of_1000"] ?? 0 > 0)
        #expect(figures["device_history/compacted_change_rows"] == figures["device_history/compacted_tail_changes"])
        #expect(figures["device_history/rows_kept_change_rows"] == figures["device_history/changes"])
    }

    @Test func sideBySideWorkloadsPrintTheirFiguresAsJSONLines() throws {
        let result = try bench(["engine", "--workloads", "--json", "--scale", "0.01", "--runs", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let figures = try workloadFigures(result.standardOutput)
        #expect(Set(figures.keys.map { String($0.prefix { $0 != "/" }) }) == ["W1", "W2", "W3", "W4", "W5"])
        for key in [
            "W1/us_per_point", "W1/wire_bytes_per_point", "W1/snapshot_bytes_per_point", "W2/build_ms",
            "W2/snapshot_encode_ms", "W2/snapshot_bytes_per_point", "W2/cold_load_ms",
            "W2/cold_load_plus_open_all_strokes_ms", "W3/merge_ms", "W3/bytes_exchanged", "W4/sync.total_ms",
            "W4/sync.MB_per_s", "W4/snapshot.total_ms", "W5/sync_s", "W5/raw_loopback_s", "W5/client_store_s",
        ] {
            #expect(figures[key] ?? 0 > 0, "\(key)")
        }
        #expect(figures["W1/points"] == 1_000)
        #expect(figures["W2/points"] == 5_000)
        #expect(figures["W3/converged"] == 1)
        #expect(figures["W5/changes"] == 10_000)
        #expect(figures["W5/failed"] == nil)
    }

    /// W5's sealed path on a tiny corpus (10 boards of 100 changes in one room): the sealed packs reach
    /// the new client sealed (55 bytes more each), every change is opened and decoded and stored, and a
    /// reader holding a wrong key gets none.
    @Test func w5SealedOpensEveryPackAndAWrongKeyNone() throws {
        let result = try bench(["engine", "--workloads", "--json", "--filter", "W5", "--scale", "0.001", "--runs", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let figures = try workloadFigures(result.standardOutput)
        #expect(figures["W5/failed"] == nil, "\(result.standardError)")
        #expect(figures["W5/changes"] == 1_000)
        #expect(figures["W5/boards"] == 10)
        #expect(figures["W5/sealed_changes_decoded"] == 1_000)
        #expect(figures["W5/sealed_changes_stored"] == 1_000)
        #expect(figures["W5/sealed_wrong_key_changes_decoded"] == 0)
        #expect(figures["W5/sealed_wrong_key_changes_stored"] == 0)
        // The encryption field (39 bytes) and the tag (16) on each of the 10 packs.
        let added = try #require(figures["W5/sealed_wire_added_bytes_per_change"])
        #expect(abs(added * 1_000 / 10 - 55) < 1e-6, "\(added)")
        for path in ["sync", "sync_decode", "client_store", "packs_open"] {
            let time = path == "packs_open" ? "\(path)_cpu_s" : "\(path)_s"
            #expect(figures["W5/\(time)"] ?? 0 > 0, "\(time)")
            #expect(figures["W5/sealed_\(time)"] ?? 0 > 0, "sealed_\(time)")
            #expect(figures["W5/sealed_\(path)_ratio"] ?? 0 > 0, "sealed_\(path)_ratio")
            #expect(figures["W5/sealed_\(path)_pair_ratio_median"] ?? 0 > 0, "sealed_\(path)_pair_ratio_median")
            #expect(figures["W5/sealed_\(path)_added_us_per_change"] != nil, "sealed_\(path)_added_us_per_change")
        }
    }

    @Test func filterSelectsWorkloads() throws {
        let result = try bench(["engine", "--scale", "0.001", "--runs", "1", "--filter", "lwwmap"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("lwwmap / merge_ms"))
        #expect(!result.standardOutput.contains("hlc"))
    }

    @Test func badOptionsAreRefusedInPlainWords() throws {
        let zeroRuns = try bench(["engine", "--runs", "0"])
        #expect(zeroRuns.status != 0)
        #expect(zeroRuns.standardError.contains("--runs must be at least 1"))
        let noMatch = try bench(["engine", "--scale", "0.001", "--runs", "1", "--filter", "nothing"])
        #expect(noMatch.status != 0)
        #expect(noMatch.standardError.contains("no workload matches --filter"))
    }

    @Test func helpListsTheCommands() throws {
        let result = try bench(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("engine"))
        #expect(result.standardOutput.contains("load"))
    }

    @Test func loadRefusesAnAddressThatIsNotAServer() throws {
        let result = try bench(["load", "--server", "ftp://127.0.0.1:8080"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("not a server address"), "\(result.standardError)")
    }

    @Test func theUsersToolHasNoBenchmarks() throws {
        let result = try InkwellProcess.run(["--help"])
        #expect(result.status == 0)
        let commands = result.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first }
        #expect(commands.contains("serve"))
        #expect(!commands.contains("bench"))
        #expect(!commands.contains("load"))
    }

    /// `--workloads --json` output as "workload/figure" → value, each line checked against the contract
    /// scripts read: exactly these three keys, in this order; every value finite, and none negative but
    /// what sealing added to a time (a difference of two timings, which noise can take below zero).
    private func workloadFigures(_ output: String) throws -> [String: Double] {
        var figures: [String: Double] = [:]
        for line in output.split(separator: "\n") {
            #expect(line.hasPrefix(#"{"workload": ""#), "\(line)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["workload", "figure", "value"], "\(line)")
            let workload = try #require(object["workload"] as? String)
            let figure = try #require(object["figure"] as? String)
            let value = try #require(object["value"] as? Double)
            #expect(value.isFinite && (value >= 0 || figure.hasSuffix("_added_us_per_change")), "\(line)")
            figures["\(workload)/\(figure)"] = value
        }
        return figures
    }

    private func bench(_ arguments: [String]) throws -> InkwellProcess.Result {
        try InkwellProcess.run(arguments, binary: InkwellProcess.benchBinary)
    }
}
