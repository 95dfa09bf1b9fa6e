import Foundation

/// A real `inkwell serve`, the `inkwell` built beside this binary, on a free loopback port and a fresh data folder.
final class BenchServer {
    let process = Process()
    let folder: URL
    let port: Int

    var url: String { "ws://127.0.0.1:\(port)/sync" }

    /// - Parameter arguments: more options for `inkwell serve`.
    init(arguments: [String] = []) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let server = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("inkwell")
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            throw BenchError("no inkwell beside inkwell-bench at \(server.path): build both products")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-server-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process.executableURL = server
        // Open rooms: the workloads name their rooms, as a server's rooms made before capabilities are
        // named; a capability check costs one cached lookup per subscription, nothing per pack.
        process.arguments =
            [
                "serve", "--host", "127.0.0.1", "--port", "0", "--data", folder.path, "--log-level", "error",
                "--open-rooms",
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The server prints "listening on HOST:PORT" once the port is bound.
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
            let port = line.split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.terminate()
            throw BenchError("inkwell serve did not start: \(text)")
        }
        self.port = port
    }

    /// Stops the server (SIGTERM: it commits and exits) and removes its data.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A benchmark that could not run, in plain words.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
