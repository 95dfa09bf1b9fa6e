import InkwellSync
import InkwellTesting
import Logging
import Testing

@testable import InkwellServer

/// Device watermarks cost no fsync of their own per subscribe: the committer keeps the newest per
/// device and room and writes them together, after its delay or with the next commit of pushes.
@Suite struct CommitterWatermarkTests {
    /// A committer over a new log in a folder of its own, not yet running; the folder goes with it.
    private struct Fixture {
        let folder: PackLogTests.Folder
        let metrics = ServerMetrics()
        let log: PackLog
        let committer: Committer
        let timekeeper = ManualTimekeeper()

        init(watermarkDelay: Duration) throws {
            folder = try PackLogTests.Folder()
            log = try PackLog(path: folder.file)
            committer = Committer(
                log: log,
                hub: RoomHub(metrics: metrics),
                metrics: metrics,
                linger: .zero,
                watermarkDelay: watermarkDelay,
                timekeeper: timekeeper,
                logger: Logger(label: "test")
            )
        }
    }

    private static func commits(_ metrics: ServerMetrics) -> Int? {
        ServerMetricsTests.samples(metrics)
            .first { $0.hasPrefix("inkwell_commit_batches_total ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
    }

    @Test func manyWatermarksAreWrittenTogetherTheNewestPerDeviceAndRoom() async throws {
        let fixture = try Fixture(watermarkDelay: .milliseconds(200))
        let (log, committer) = (fixture.log, fixture.committer)
        let running = Task { await committer.run() }
        let (alice, bob) = (ReplicaID.random(), ReplicaID.random())
        // A device that subscribes again and again: a thousand notes, out of order.
        for position in (1...1_000).shuffled() {
            committer.note(PackLog.Watermark(room: "a", device: alice, position: UInt64(position)))
        }
        for room in 0..<100 { committer.note(PackLog.Watermark(room: "r\(room)", device: bob, position: 7)) }
        // The committer's time stands still until the test moves it: however long the machine takes,
        // nothing is written before the delay.
        for _ in 0..<250 where fixture.timekeeper.sleepers == 0 { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(try log.watermark(room: "a", device: alice) == 0, "nothing is written before the delay")
        fixture.timekeeper.advance(by: .milliseconds(200))
        for _ in 0..<250 where try log.watermark(room: "r99", device: bob) == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try log.watermark(room: "a", device: alice) == 1_000)
        #expect(try log.watermark(room: "r0", device: bob) == 7)
        #expect(try log.watermark(room: "r99", device: bob) == 7)
        // The batch is counted once its transaction returns, a moment after the log shows it.
        for _ in 0..<250 where (Self.commits(fixture.metrics) ?? 0) == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        let commits = try #require(Self.commits(fixture.metrics))
        #expect(commits == 1, "1,100 watermarks took \(commits) transactions")
        committer.stop()
        await running.value
        withExtendedLifetime(fixture) {}
    }

    @Test func watermarksWaitingAtShutdownAreWritten() async throws {
        let fixture = try Fixture(watermarkDelay: .seconds(3_600))
        let (log, committer) = (fixture.log, fixture.committer)
        let running = Task { await committer.run() }
        let device = ReplicaID.random()
        committer.note(PackLog.Watermark(room: "a", device: device, position: 42))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try log.watermark(room: "a", device: device) == 0)
        committer.stop()
        await running.value
        withExtendedLifetime(fixture) {}
        #expect(try log.watermark(room: "a", device: device) == 42)
    }

    @Test func asManyWatermarksAsTheBoundAreWrittenWithoutWaitingForTheDelay() async throws {
        let fixture = try Fixture(watermarkDelay: .seconds(3_600))
        let (log, committer) = (fixture.log, fixture.committer)
        let running = Task { await committer.run() }
        let device = ReplicaID.random()
        for room in 0..<Committer.maximumWatermarksWaiting {
            committer.note(PackLog.Watermark(room: "r\(room)", device: device, position: 3))
        }
        let last = "r\(Committer.maximumWatermarksWaiting - 1)"
        for _ in 0..<250 where try log.watermark(room: last, device: device) == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try log.watermark(room: last, device: device) == 3, "written long before the hour's delay")
        committer.stop()
        await running.value
        withExtendedLifetime(fixture) {}
    }
}
