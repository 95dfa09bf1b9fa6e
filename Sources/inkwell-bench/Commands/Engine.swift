import ArgumentParser
import Foundation

extension InkwellBench {
    /// Measures the engine. Build with `-c release`: debug builds are 10–50× slower.
    struct Engine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "engine",
            abstract: "Measure the sync engine's core operations.",
            discussion: """
                Each figure is the median of several runs. Compare ratios measured in one run: \
                shared machines are noisy.
                """
        )

        @Flag(help: "Print one JSON object per figure instead of a table.")
        var json = false

        @Option(help: "Runs per figure; the median is reported.")
        var runs = 5

        @Option(help: "Scale the workload sizes (e.g. 0.1 for a quick check).")
        var scale = 1.0

        @Option(help: "Only run workloads whose name contains this text.")
        var filter: String?

        @Flag(help: "Run the side-by-side workloads W1–W5 (see Benchmarks/compare.sh) instead of the engine figures.")
        var workloads = false

        @Option(help: "Human-drawn strokes (JSON lines) for the bytes-per-point figures.")
        var shapes = "../shared/data/shapes/dollar1-dev.jsonl"

        mutating func validate() throws {
            guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
            guard scale > 0 else { throw ValidationError("--scale must be positive") }
        }

        func run() async throws {
            let workloads =
                self.workloads
                ? AnchorWorkloads(scale: scale, runs: runs).workloads
                : EngineBenchmarks(scale: scale, runs: runs).workloads
                    + BoardBenchmarks(scale: scale, runs: runs).workloads
                    + GeometryBenchmarks(scale: scale, runs: runs).workloads
                    + WireBenchmarks(scale: scale, runs: runs, shapes: URL(fileURLWithPath: shapes)).workloads
                    + StoreBenchmarks(scale: scale, runs: runs).workloads
                    + DeviceHistoryBenchmarks(scale: scale, runs: runs).workloads
            var figures: [Figure] = []
            for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
                let measured = await workload.measure()
                figures.append(contentsOf: measured)
                if json {
                    for figure in measured { print(figure.json) }
                } else {
                    for figure in measured { print(figure.row) }
                }
            }
            if figures.isEmpty { throw ValidationError("no workload matches --filter") }
        }
    }
}
