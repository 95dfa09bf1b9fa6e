import Foundation
import InkwellTesting

/// Runs the built `inkwell` binary (or `inkwell-bench`), as a user or a script would.
struct InkwellProcess {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static var binary: URL { ChildProcess.executable() }
    /// The benchmarks and the load generator, built beside `inkwell`.
    static var benchBinary: URL { ChildProcess.executable("inkwell-bench") }

    /// ``run(_:)`` on a thread of its own, so an async test does not hold a thread of the shared pool.
    static func running(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try run(arguments) })
            }
        }
    }

    static func run(_ arguments: [String], binary: URL = InkwellProcess.binary) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}
