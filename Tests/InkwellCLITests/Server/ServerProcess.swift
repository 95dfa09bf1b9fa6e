import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `inkwell serve` as a child process: started on a data folder, stopped with SIGTERM or killed with SIGKILL.
final class ServerProcess: Sendable {
    let process: Process
    let port: Int
    let data: String

    private init(process: Process, port: Int, data: String) {
        self.process = process
        self.port = port
        self.data = data
    }

    /// Starts the server and waits for its "listening on" line. Port 0 picks a free one. Waits without
    /// blocking a thread: tests share the cooperative pool, which has as many threads as cores.
    static func start(data: String, port: Int = 0) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = InkwellProcess.binary
        process.arguments = ["serve", "--port", "\(port)", "--data", data, "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let seen = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            seen.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let text = seen.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return ServerProcess(process: process, port: port, data: data)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw ServerProcessError(description: "the server did not report listening: \(seen.withLock { $0 })")
    }

    var address: String { "http://127.0.0.1:\(port)" }
    var syncURL: String { "ws://127.0.0.1:\(port)/sync" }

    func kill() async {
        Glibc.kill(process.processIdentifier, SIGKILL)
        await Self.exit(of: process)
    }

    /// SIGTERM, then waits for the graceful exit.
    func stop() async -> Int32 {
        process.terminate()
        await Self.exit(of: process)
        return process.terminationStatus
    }

    /// Waits for a child to end without blocking a thread.
    static func exit(of process: Process) async {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }
}

struct ServerProcessError: Error, CustomStringConvertible {
    let description: String
}

/// A temporary folder removed when the test is done.
final class TemporaryFolder {
    let path: String

    init(_ name: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
