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

    /// Starts the server and waits for its "listening on" line. Port 0 picks a free one.
    static func start(data: String, port: Int = 0) throws -> ServerProcess {
        let process = Process()
        process.executableURL = InkwellProcess.binary
        process.arguments = ["serve", "--port", "\(port)", "--data", data, "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
            let text = String(decoding: seen, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return ServerProcess(process: process, port: port, data: data)
            }
        }
        process.terminate()
        throw ServerProcessError(
            description: "the server did not report listening: \(String(decoding: seen, as: UTF8.self))"
        )
    }

    var address: String { "http://127.0.0.1:\(port)" }
    var syncURL: String { "ws://127.0.0.1:\(port)/sync" }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the graceful exit.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
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
