import Foundation
import InkwellTesting

/// Runs the built `food-log`, as a person would, and waits for it to exit.
enum FoodLogProcess {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> Result {
        let child = try ChildProcess(arguments, executable: ChildProcess.executable("food-log"))
        let status = await child.waitForExit(timeout: timeout)
        return Result(status: status, standardOutput: child.standardOutput, standardError: child.standardError)
    }

    /// Runs `arguments` and fails unless they exit 0; returns standard output.
    @discardableResult
    static func succeed(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> String {
        let result = try await run(arguments, timeout: timeout)
        guard result.status == 0 else {
            throw ChildProcess.Failure(
                "food-log \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)"
            )
        }
        return result.standardOutput
    }
}
