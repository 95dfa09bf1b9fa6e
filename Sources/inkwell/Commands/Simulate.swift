import ArgumentParser
import Dispatch
import Foundation
import InkwellSimulation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension Inkwell {
    /// Deterministic simulation: the whole system in one process, seed after seed.
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a server and devices in one process on a simulated clock, under faults, seed by seed.",
            discussion: """
                Each seed runs the real server (the sync endpoint and group committer of inkwell serve, \
                on its SQLite log) and --clients real Swift clients on their stores, every task of them one \
                job at a time in an order the seed picks, with only the network, time and disks simulated: \
                connections drop, devices are cut off, the server and devices crash and restart, disks \
                fill up or fail, clocks are skewed and jump, and one seed in four gives the room a quota. \
                Then the network heals and the devices must converge. After each seed it checks that \
                nothing acknowledged or made is lost, every device shows the drawing the server's log \
                makes, the quota held, no change is applied twice and every pack is its author's. A seed \
                gives the same run, and the same trace hash, every time; a failing seed prints the command \
                that replays it.
                """
        )

        @Option(help: "How many seeds to run, from --seed on.")
        var seeds = 1

        @Option(help: "The first seed (default: a random one, printed).")
        var seed: UInt64?

        @Option(help: "Devices per run.")
        var clients = 3

        @Option(help: "Strokes each device draws per run.")
        var strokes = 12

        @Option(
            help:
                "Put a bug into the server on purpose, to see the checks catch it: \(InjectedBug.allCases.map(\.rawValue).joined(separator: ", "))."
        )
        var inject: String?

        @Flag(help: "Print every seed's trace hash, not only the failures.")
        var verbose = false

        @Flag(help: "Print each seed's trace, event by event, as it runs (for replaying one seed).")
        var trace = false

        mutating func validate() throws {
            guard seeds >= 1 else { throw ValidationError("--seeds must be at least 1") }
            guard (1...16).contains(clients) else { throw ValidationError("--clients must be between 1 and 16") }
            guard (0...10_000).contains(strokes) else { throw ValidationError("--strokes must be between 0 and 10000") }
            if let inject, InjectedBug(rawValue: inject) == nil {
                throw ValidationError(
                    "--inject must be one of \(InjectedBug.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }

        func run() throws {
            Self.hashDeterministically()
            var options = SimulationOptions()
            options.clients = clients
            options.strokesPerClient = strokes
            options.injectedBug = inject.flatMap(InjectedBug.init(rawValue:))
            options.printsTrace = trace
            let first = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            print(
                "simulating \(seeds) seed\(seeds == 1 ? "" : "s") from \(first), \(clients) devices, \(strokes) strokes each"
            )
            let start = ContinuousClock.now
            let results = Self.run(seeds: seeds, from: first, options: options)
            var failed: [UInt64] = []
            var totals = (
                events: 0, changes: 0, drops: 0, partitions: 0, serverCrashes: 0, clientCrashes: 0, jumps: 0,
                cut: UInt64(0), midWrite: 0, disks: 0, storageRefusals: 0, unsaved: 0, roomFull: 0,
                snapshots: 0, compacted: 0, positionsDropped: UInt64(0), rebases: 0
            )
            for (seed, result) in results {
                let verdict: SimulationVerdict
                switch result {
                case .success(let passed):
                    verdict = passed
                case .failure(let error):
                    // A run that could not go on is a failure of its seed, replayed like any other.
                    failed.append(seed)
                    print("seed \(seed) FAILED: the run stopped: \(error)")
                    print("  replay: \(Self.replay(seed: seed, clients: clients, strokes: strokes, inject: inject))")
                    continue
                }
                totals.events += verdict.events
                totals.changes += verdict.counts.changes
                totals.drops += verdict.counts.drops
                totals.partitions += verdict.counts.partitions
                totals.serverCrashes += verdict.counts.serverCrashes
                totals.clientCrashes += verdict.counts.clientCrashes
                totals.jumps += verdict.counts.clockJumps
                totals.cut += verdict.counts.unsyncedWritesCut
                totals.midWrite += verdict.counts.writesCut
                totals.disks += verdict.counts.diskFaults
                totals.storageRefusals += verdict.counts.storageRefusals
                totals.unsaved += verdict.counts.unsavedEdits
                totals.roomFull += verdict.counts.roomFullRefusals
                totals.snapshots += verdict.snapshots
                totals.compacted += verdict.floor > 0 ? 1 : 0
                totals.positionsDropped += verdict.floor
                totals.rebases += verdict.counts.rebases
                if verbose || seeds == 1 {
                    print(
                        "seed \(seed): \(verdict.passed ? "passed" : "FAILED"), trace \(verdict.traceHash), \(verdict.events) events, \(verdict.packs) packs, \(verdict.acknowledged) acks"
                    )
                }
                guard !verdict.passed else { continue }
                failed.append(seed)
                print("seed \(seed) FAILED (trace \(verdict.traceHash)):")
                for failure in verdict.failures.prefix(10) { print("  \(failure)") }
                print("  replay: \(Self.replay(seed: seed, clients: clients, strokes: strokes, inject: inject))")
            }
            let seconds =
                Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                + Double((ContinuousClock.now - start).components.seconds)
            print(
                "\(seeds - failed.count) of \(seeds) seeds passed in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(seeds) / seconds)) seeds/s): \(totals.events) events, \(totals.changes) changes, \(totals.drops) drops, \(totals.partitions) partitions, \(totals.serverCrashes) server crashes, \(totals.clientCrashes) device crashes (power cuts, \(totals.midWrite) of them mid-write; \(totals.cut) unsynced writes lost or torn), \(totals.jumps) clock jumps, \(totals.disks) full or failing disks (\(totals.storageRefusals) pushes refused for storage, \(totals.unsaved) strokes not saved), \(totals.roomFull) pushes refused by a full room, \(totals.snapshots) snapshots kept, \(totals.compacted) logs compacted (\(totals.positionsDropped) positions dropped, \(totals.rebases) devices rebased on a snapshot)"
            )
            if !failed.isEmpty { throw ExitCode.failure }
        }

        /// Runs the seeds on every core, each seed alone on its thread (a seed's run depends on nothing
        /// else), and returns each seed's verdict, or the error that stopped its run, in seed order.
        static func run(
            seeds: Int,
            from first: UInt64,
            options: SimulationOptions
        ) -> [(seed: UInt64, result: Result<SimulationVerdict, any Error>)] {
            let next = Atomic<Int>(0)
            let results = Mutex<[Int: Result<SimulationVerdict, any Error>]>([:])
            let workers = min(seeds, max(1, ProcessInfo.processInfo.activeProcessorCount))
            // Threads of their own, outside any task: a simulation runs its devices' tasks on its thread.
            let done = DispatchGroup()
            for _ in 0..<workers {
                done.enter()
                let worker = Thread {
                    defer { done.leave() }
                    while true {
                        let offset = next.add(1, ordering: .relaxed).oldValue
                        guard offset < seeds else { return }
                        let result = Result { try Simulation(seed: first &+ UInt64(offset), options: options).run() }
                        results.withLock { $0[offset] = result }
                    }
                }
                worker.stackSize = 8 << 20
                worker.start()
            }
            done.wait()
            let all = results.withLock { $0 }
            return (0..<seeds).map { (first &+ UInt64($0), all[$0]!) }
        }

        static func replay(seed: UInt64, clients: Int, strokes: Int, inject: String?) -> String {
            var words = ["inkwell", "simulate", "--seed", "\(seed)"]
            if clients != 3 { words += ["--clients", "\(clients)"] }
            if strokes != 12 { words += ["--strokes", "\(strokes)"] }
            if let inject { words += ["--inject", inject] }
            return words.joined(separator: " ")
        }

        /// Dictionaries and sets iterate in an order seeded per process unless SWIFT_DETERMINISTIC_HASHING is
        /// set when it starts: this process starts itself again with it, so a seed replays exactly.
        static func hashDeterministically() {
            guard ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil else { return }
            setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
            let arguments = CommandLine.arguments
            var pointers = arguments.map { strdup($0) } + [nil]
            execv("/proc/self/exe", &pointers)
            // Where it cannot restart, it runs on, replayable only up to the hashing order.
            FileHandle.standardError.write(
                Data("could not restart with deterministic hashing: runs may not replay exactly\n".utf8)
            )
        }
    }
}
