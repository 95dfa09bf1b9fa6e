import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `inkwell serve` running as a child process, as a user would run it.
final class ServerProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    let data: URL
    private let process: Process
    private let output: Captured

    /// The binary sits beside the test bundle in the build products folder (as in InkwellCLITests).
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("inkwell")
    }

    var url: URL { URL(string: "ws://127.0.0.1:\(port)/sync")! }

    /// Starts `inkwell serve --port <port> --data <data>` and returns once it prints `listening on HOST:PORT`.
    static func start(data: URL, port: Int = 0) async throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no inkwell binary at \(binary.path): build the package first")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", String(port), "--data", data.path, "--log-level", "warning"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        let output = Captured()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            output.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let text = output.text.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let bound = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return ServerProcess(port: bound, data: data, process: process, output: output)
            }
            guard process.isRunning else {
                throw Failure(description: "inkwell serve exited with \(process.terminationStatus): \(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw Failure(description: "inkwell serve did not print its port within 60 s")
    }

    private init(port: Int, data: URL, process: Process, output: Captured) {
        self.port = port
        self.data = data
        self.process = process
        self.output = output
    }

    /// SIGTERM, as an operator would: the server closes connections with 1001 and exits.
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// A port that was free a moment ago, for a server started later: bind to port 0, read it, close.
    static func freePort() throws -> Int {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "could not bind a free port: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Standard output of the child, as it arrives.
private final class Captured: Sendable {
    let text = Mutex("")
}

/// A temporary directory, removed when the test is done with it.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
