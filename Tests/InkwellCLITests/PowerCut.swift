import CInkwellCrashVFS
import Foundation
import InkwellTesting

/// The disk after a power cut: what a process writing through the crash VFS (`--crash-vfs`) left unsynced
/// when it was killed, applied as a disk might have kept it (dropped, kept, or torn at sector boundaries).
enum PowerCut {
    /// What one or more settles did with the unsynced writes they found.
    struct Outcome: CustomStringConvertible {
        var cuts = 0
        var writes: UInt64 = 0
        var kept: UInt64 = 0
        var dropped: UInt64 = 0
        var torn: UInt64 = 0

        var description: String {
            "\(cuts) power cuts: \(writes) unsynced writes, \(kept) kept, \(dropped) dropped, \(torn) torn"
        }
    }

    /// Settles the side logs in `directory`, choosing what the disk kept by `seed`. Call it with no process
    /// using the files, after the one writing them was killed.
    static func settle(_ directory: URL, seed: UInt64, into outcome: inout Outcome) throws {
        var settled = inkwell_crash_outcome()
        guard inkwell_crash_vfs_settle(directory.path, seed, &settled) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory.path, "errno": errno])
        }
        outcome.cuts += 1
        outcome.writes += settled.writes
        outcome.kept += settled.kept
        outcome.dropped += settled.dropped
        outcome.torn += settled.torn
    }

    /// Kills `server` where it stands, as the power cut does; fails if it had crashed before, with the
    /// runtime's backtrace.
    static func cut(_ server: ServerProcess) async throws {
        await server.kill()
        try requireNoCrash(server)
    }

    /// Fails with the runtime's backtrace if `server` crashed before a test stopped it.
    static func requireNoCrash(_ server: ServerProcess) throws {
        if let report = server.crashReport {
            throw ChildProcess.Failure("the server crashed before it was stopped:\n\(report.prefix(8_000))")
        }
    }

    /// Cycles per power-loss test: 20, or INKWELL_POWER_CUTS for a longer run.
    static let cycles = ProcessInfo.processInfo.environment["INKWELL_POWER_CUTS"].flatMap(Int.init) ?? 20

    /// The test's seed (INKWELL_SEED, or a new one), printed with the cycles so a run can be replayed.
    static func seed(of test: String) -> UInt64 {
        let seed = SeededGenerator.seedFromEnvironment()
        print("\(test) seed \(seed) (INKWELL_SEED), \(cycles) cuts (INKWELL_POWER_CUTS)")
        return seed
    }

    /// Starts `inkwell serve` on the crash VFS over `data`, on `port` once a first cycle has bound one.
    static func serve(_ data: URL, port: inout Int) async throws -> ServerProcess {
        let server = try await ServerProcess.start(
            data: data,
            port: port,
            logLevel: "error",
            arguments: ["--crash-vfs"]
        )
        port = server.port
        return server
    }
}
