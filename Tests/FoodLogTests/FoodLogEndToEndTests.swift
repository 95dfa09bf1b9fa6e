import Foundation
import InkwellTesting
import Testing

/// Two devices' food logs through the real `inkwell serve`, each `food-log` a real process: counts made
/// offline add up once they sync.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct FoodLogEndToEndTests {
    @Test func twoDevicesCountOfflineThenSyncToTheSameTotals() async throws {
        let folder = try TemporaryDirectory("food-log")
        let a = folder.path("a")
        let b = folder.path("b")
        // Offline: no server is running yet.
        try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--count", "2", "--data", a])
        try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--data", b])
        try await FoodLogProcess.succeed(["add", "2026-11-25", "tea", "--data", b])

        let server = try await ServerProcess.start(data: folder.url.appendingPathComponent("server"))
        do {
            for data in [a, b, a] {
                let synced = try await FoodLogProcess.succeed(
                    ["sync", "--server", server.address, "--data", data, "--wait-synced", "--timeout", "60"]
                )
                #expect(synced == "synced food-log: 1 days\n")
            }
        } catch {
            await server.stop()
            throw error
        }
        #expect(await server.stop() == 0)

        let shownA = try await FoodLogProcess.succeed(["show", "--data", a])
        let shownB = try await FoodLogProcess.succeed(["show", "--data", b])
        #expect(shownA == "2026-11-25 rice 3\n2026-11-25 tea 1\n")
        #expect(shownB == shownA)
    }

    /// With nobody to sync with, `--wait-synced` gives up after `--timeout` and says so.
    @Test func waitingForAServerThatIsNotThereFailsAfterTheTimeout() async throws {
        let folder = try TemporaryDirectory("food-log")
        let data = folder.path("a")
        try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--data", data])
        let port = try ServerProcess.freePort()
        let start = ContinuousClock.now
        let result = try await FoodLogProcess.run(
            ["sync", "--server", "http://127.0.0.1:\(port)", "--data", data, "--wait-synced", "--timeout", "2"]
        )
        #expect(result.status != 0)
        #expect(result.standardError.contains("not synced within 2.0 s"), "\(result.standardError)")
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(try await FoodLogProcess.succeed(["show", "--data", data]) == "2026-11-25 rice 1\n")
    }
}
