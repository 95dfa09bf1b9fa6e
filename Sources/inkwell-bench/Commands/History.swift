import ArgumentParser
import Foundation

extension InkwellBench {
    /// A room's history before and after compaction, through a real server.
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Measure a board's history on the server before and after a snapshot replaces its packs.",
            discussion: """
                Pushes one board's history to a real `inkwell serve` (built beside this binary), syncs it to a \
                new device from the packs, lets that device send a snapshot, waits for the server to drop the \
                packs, and syncs a second new device from the snapshot. Build both products with -c release.
                """
        )

        @Option(help: "Changes in the board's history.")
        var changes = 1_000_000

        @Option(help: "Devices that drew it, taking turns.")
        var authors = 4

        @Option(help: "Changes per pushed pack (a device's outbox packs what waited together).")
        var perPack = 10

        @Option(help: "The share of changes that delete a stroke; their authors then settle as pages do.")
        var deleting = 0.0

        @Option(help: "The server's retention, in seconds: the authors must have been away this long.")
        var retention = 5.0

        @Flag(help: "Print one JSON object per figure instead of a table.")
        var json = false

        mutating func validate() throws {
            guard changes >= 1, authors >= 1, perPack >= 1 else {
                throw ValidationError("--changes, --authors and --per-pack must be at least 1")
            }
            guard retention > 0 else { throw ValidationError("--retention must be positive") }
            guard (0..<1).contains(deleting) else { throw ValidationError("--deleting is a share below 1") }
        }

        func run() async throws {
            let corpus = HistoryCorpus(changes: changes, authors: authors, perPack: perPack, deleting: deleting)
            let result = try await HistoryRun(corpus: corpus, retentionSeconds: retention).measure()
            let name = "history \(changes / 1_000)k×\(perPack)" + (deleting > 0 ? " deleting \(deleting)" : "")
            let figures = [
                Figure(workload: name, figure: "encoded changes, MB", value: Double(corpus.bytes) / 1e6),
                Figure(workload: name, figure: "server keeps, packs, MB", value: Double(result.packsBytes) / 1e6),
                Figure(workload: name, figure: "server keeps, packs, count", value: Double(result.packsCount)),
                Figure(
                    workload: name,
                    figure: "server keeps, compacted, MB",
                    value: Double(result.compactedBytes) / 1e6
                ),
                Figure(workload: name, figure: "server keeps, compacted, count", value: Double(result.compactedCount)),
            ]
            let syncs =
                Self.figures(of: result.fromPacks, as: "new device from packs", in: name)
                + Self.figures(of: result.fromSnapshot, as: "new device from snapshot", in: name)
            let device = [
                ("as synced", result.device.rows), ("compacted, every change", result.device.compacted),
                ("compacted by the board's rule", result.device.lean),
            ].flatMap { label, figures in
                [
                    Figure(workload: name, figure: "device store \(label), MB", value: Double(figures.usedBytes) / 1e6),
                    Figure(workload: name, figure: "device store \(label), changes", value: Double(figures.held)),
                    Figure(workload: name, figure: "device store \(label), cold open s", value: figures.openSeconds),
                ]
            }
            for figure in figures + syncs + device { print(json ? figure.json : figure.row) }
        }

        /// A new device's first sync: its time, what it received, and its store on disk.
        private static func figures(of sync: HistoryRun.Sync, as label: String, in workload: String) -> [Figure] {
            [
                Figure(workload: workload, figure: "\(label), s", value: sync.seconds),
                Figure(workload: workload, figure: "\(label), MB received", value: Double(sync.bytesReceived) / 1e6),
                Figure(workload: workload, figure: "\(label), store MB", value: Double(sync.storeBytes) / 1e6),
            ]
        }
    }
}
