import Foundation
import InkwellTesting
import Testing

/// `food-log add` and `show` on one device, with no server: the binary as shipped.
@Suite struct FoodLogCommandTests {
    @Test func countsAddUpAndShowListsThemByDayThenFood() async throws {
        let folder = try TemporaryDirectory("food-log")
        let data = folder.path("data")
        let added = try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--count", "2", "--data", data])
        #expect(added == "added 2 rice on 2026-11-25: 2 on this device\n")
        try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--data", data])
        try await FoodLogProcess.succeed(["add", "2026-11-24", "tea", "--data", data])
        try await FoodLogProcess.succeed(["add", "2026-11-25", "apple", "--data", data])
        try await FoodLogProcess.succeed(["add", "2026-11-25", "cake", "--data", data])
        let takenBack = try await FoodLogProcess.succeed(["add", "2026-11-25", "cake", "--count=-1", "--data", data])
        #expect(takenBack == "added -1 cake on 2026-11-25: 0 on this device\n")
        let shown = try await FoodLogProcess.succeed(["show", "--data", data])
        #expect(shown == "2026-11-24 tea 1\n2026-11-25 apple 1\n2026-11-25 rice 3\n", "a count of 0 is left out")
        let oneDay = try await FoodLogProcess.succeed(["show", "--day", "2026-11-24", "--data", data])
        #expect(oneDay == "2026-11-24 tea 1\n")
    }

    @Test func roomsKeepSeparateLogs() async throws {
        let folder = try TemporaryDirectory("food-log")
        let data = folder.path("data")
        try await FoodLogProcess.succeed(["add", "2026-11-25", "rice", "--room", "home", "--data", data])
        try await FoodLogProcess.succeed(["add", "2026-11-25", "tea", "--data", data])
        #expect(try await FoodLogProcess.succeed(["show", "--room", "home", "--data", data]) == "2026-11-25 rice 1\n")
        #expect(try await FoodLogProcess.succeed(["show", "--data", data]) == "2026-11-25 tea 1\n")
    }

    @Test(
        arguments: [
            (["add", "2026-13-01", "rice"], "YYYY-MM-DD"),
            (["add", "2026-02-29", "rice"], "YYYY-MM-DD"),
            (["add", "26-11-25", "rice"], "YYYY-MM-DD"),
            (["add", "2026-11-25", "white rice"], "without spaces"),
            (["add", "2026-11-25", "rice", "--count", "0"], "must not be 0"),
            (["add", "2026-11-25", "rice", "--room", "no room"], "room names"),
            (["show", "--day", "tomorrow"], "YYYY-MM-DD"),
            (["sync", "--server", "ftp://host"], "not a server address"),
        ]
    )
    func badInputIsRefusedInPlainWords(arguments: [String], message: String) async throws {
        let folder = try TemporaryDirectory("food-log")
        let result = try await FoodLogProcess.run(arguments + ["--data", folder.path("data")])
        #expect(result.status != 0)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aLeapDayIsADay() async throws {
        let folder = try TemporaryDirectory("food-log")
        let data = folder.path("data")
        try await FoodLogProcess.succeed(["add", "2028-02-29", "soup", "--data", data])
        #expect(try await FoodLogProcess.succeed(["show", "--data", data]) == "2028-02-29 soup 1\n")
    }
}
