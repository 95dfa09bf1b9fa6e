import Foundation
import GRDB
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// The real server, on the crash VFS, killed under load and its disk left as a power cut would leave it:
/// every write no fsync covered dropped, kept or torn. An acknowledged pack is never lost and the log
/// stays whole. `INKWELL_POWER_CUTS` sets the cycles (default 20); `INKWELL_SEED` replays a run.
@Suite(.serialized) struct PowerLossTests {
    @Test func noAcknowledgedPackIsLostToAPowerCut() async throws {
        var random = SeededGenerator(seed: PowerCut.seed(of: "PowerLossTests"))
        let folder = try TemporaryDirectory("power")
        var acknowledged: [PackID: (room: String, position: UInt64)] = [:]
        var outcome = PowerCut.Outcome()
        var port = 0
        var pushed = 0
        for cycle in 0..<PowerCut.cycles {
            let server = try await PowerCut.serve(folder.url, port: &port)
            pushed += try await ServerCrashTests.pushUntilStopped(server, using: &random, into: &acknowledged) {
                await server.kill()
            }
            try PowerCut.requireNoCrash(server)
            try PowerCut.settle(folder.url, seed: random.next(), into: &outcome)
            try Self.check(folder.path + "/packs.sqlite", holds: acknowledged, cycle: cycle)
        }
        print("PowerLossTests: \(pushed) pushes, \(acknowledged.count) acknowledged, all present; \(outcome)")
        #expect(acknowledged.count > PowerCut.cycles)
        #expect(outcome.writes > 0, "no power cut found an unsynced write")
    }

    /// The log after a cut: SQLite's integrity check passes and every acknowledged pack is where its ack said.
    private static func check(
        _ path: String,
        holds acknowledged: [PackID: (room: String, position: UInt64)],
        cycle: Int
    ) throws {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        let (integrity, stored) = try database.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            var stored: [String: [UInt64: PackID]] = [:]
            // A cut that lost the schema's creation lost every pack with it.
            guard try db.tableExists("pack") else { return (integrity, stored) }
            for row in try Row.fetchAll(db, sql: "SELECT room, position, bytes FROM pack") {
                let bytes = [UInt8](row[2] as Data)
                stored[row[0] as String, default: [:]][UInt64(row[1] as Int64)] = try PackCodec.header(of: bytes).id
            }
            return (integrity, stored)
        }
        try #require(integrity == ["ok"], "cycle \(cycle): integrity check says \(integrity)")
        let missing = acknowledged.filter { stored[$0.value.room]?[$0.value.position] != $0.key }
        try #require(
            missing.count == 0,
            "cycle \(cycle): \(missing.count) of \(acknowledged.count) acknowledged packs lost to a power cut"
        )
    }
}
