import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `inkwell` binary running as a child, its output captured as it arrives (adapted from
/// InkwellClientTests' ServerProcess, which this target cannot import).
final class ChildProcess: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private final class Captured: Sendable {
        let standardOutput = Mutex("")
        let standardError = Mutex("")
    }

    let arguments: [String]
    private let process: Mutex<Process>
    private let captured = Captured()

    /// Starts `inkwell ARGUMENTS`.
    init(_ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: InkwellProcess.binary.path) else {
            throw Failure(description: "no inkwell binary at \(InkwellProcess.binary.path): build the package first")
        }
        self.arguments = arguments
        let process = Process()
        process.executableURL = InkwellProcess.binary
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let captured = captured
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            captured.standardOutput.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        error.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            captured.standardError.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        self.process = Mutex(process)
    }

    deinit {
        process.withLock { process in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    var standardOutput: String { captured.standardOutput.withLock { $0 } }
    var standardError: String { captured.standardError.withLock { $0 } }
    var isRunning: Bool { process.withLock(\.isRunning) }
    var identifier: Int32 { process.withLock(\.processIdentifier) }

    /// The exit status once it has exited.
    var terminationStatus: Int32? {
        process.withLock { $0.isRunning ? nil : $0.terminationStatus }
    }

    /// Waits until a line of standard output satisfies `match`; fails if the process exits first.
    func waitForLine(timeout: Duration, where match: (Substring) -> Bool) async throws -> Substring {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = standardOutput.split(separator: "\n").first(where: match) { return line }
            guard isRunning else {
                throw Failure(description: "inkwell \(arguments.first ?? "") exited: \(standardError.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "inkwell \(arguments.first ?? "") printed no expected line in \(timeout)")
    }

    /// Waits for the exit (SIGKILL after `timeout`) and returns the status.
    @discardableResult
    func waitForExit(timeout: Duration) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if isRunning {
            kill(identifier, SIGKILL)
            while isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        }
        // Let the readability handlers take the last output.
        try? await Task.sleep(for: .milliseconds(50))
        return terminationStatus ?? -1
    }

    /// SIGTERM, as an operator would, then waits for the exit.
    func terminate(timeout: Duration = .seconds(20)) async -> Int32 {
        if isRunning { kill(identifier, SIGTERM) }
        return await waitForExit(timeout: timeout)
    }
}

/// `inkwell serve` on a free port.
struct ServerUnderAttack {
    let child: ChildProcess
    let port: Int
    let data: URL

    static func start(data: URL) async throws -> ServerUnderAttack {
        let child = try ChildProcess(["serve", "--port", "0", "--data", data.path, "--log-level", "warning"])
        let line = try await child.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("listening on ") }
        guard let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw ChildProcess.Failure(description: "no port in \(line)")
        }
        return ServerUnderAttack(child: child, port: port, data: data)
    }

    /// The status of `GET /healthz`, over a plain socket.
    func healthStatus() -> Int? {
        guard let socket = try? RawSocket(port: port) else { return nil }
        defer { socket.close() }
        let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        guard socket.send(Array(request.utf8)) else { return nil }
        var response: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while case .bytes = socket.receive(into: &response, until: deadline) {}
        let status = String(decoding: response.prefix(12), as: UTF8.self).split(separator: " ").dropFirst().first
        return status.flatMap { Int($0) }
    }
}

/// A temporary directory, removed when the test is done with it.
struct ScratchDirectory: ~Copyable {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
