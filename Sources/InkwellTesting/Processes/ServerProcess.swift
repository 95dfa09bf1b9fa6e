public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `inkwell serve` as a child process on a loopback port: started on a data folder, stopped with
/// SIGTERM or killed with SIGKILL, as the tests of real processes need it.
public final class ServerProcess: Sendable {
    public let child: ChildProcess
    public let port: Int
    public let data: URL

    private init(child: ChildProcess, port: Int, data: URL) {
        self.child = child
        self.port = port
        self.data = data
    }

    /// Starts the server and returns once it prints `listening on HOST:PORT`. Port 0 picks a free one;
    /// `directory` is its working directory (default: this process's). With `openRooms` (tests that are
    /// not about access), any room name may be used without capabilities.
    ///
    /// With `INKWELL_TEST_STORE=postgres` in the environment the server is a node on PostgreSQL
    /// (`--postgres`), on a database of the test process's cluster made for `data` and kept with it, so
    /// that a server restarted on the same data finds its rooms.
    public static func start(
        data: URL,
        port: Int = 0,
        logLevel: String = "warning",
        arguments: [String] = [],
        directory: URL? = nil,
        openRooms: Bool = true
    ) async throws -> ServerProcess {
        var store: [String] = []
        if ProcessInfo.processInfo.environment["INKWELL_TEST_STORE"] == "postgres",
            !arguments.contains("--postgres")
        {
            store = ["--postgres", try await postgresDatabase(for: data)]
        }
        let child = try ChildProcess(
            ["serve", "--port", "\(port)", "--data", data.path, "--log-level", logLevel]
                + (openRooms ? ["--open-rooms"] : []) + store + arguments,
            directory: directory
        )
        let line = try await child.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("listening on ") }
        guard let bound = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw ChildProcess.Failure("no port in \(line)")
        }
        return ServerProcess(child: child, port: bound, data: data)
    }

    /// The database of the server on `data`: made on first start, its URL kept in the data folder.
    private static func postgresDatabase(for data: URL) async throws -> String {
        let file = data.appendingPathComponent(".test-postgres-url")
        if let url = try? String(contentsOf: file, encoding: .utf8) { return url }
        let url = try await SharedPostgres.cluster().makeDatabase()
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try url.write(to: file, atomically: true, encoding: .utf8)
        return url
    }

    /// `http://127.0.0.1:PORT`, as `inkwell join --server` takes it.
    public var address: String { "http://127.0.0.1:\(port)" }
    /// The sync socket's URL.
    public var syncURL: URL { URL(string: "ws://127.0.0.1:\(port)/sync")! }

    /// SIGTERM, then waits for the graceful exit (SIGKILL after 20 s).
    @discardableResult
    public func stop() async -> Int32 {
        await child.terminate()
    }

    /// The runtime's backtrace if the server crashed, else nil: a test that kills the server on purpose
    /// checks it, or a crash just before its kill would pass unseen.
    public var crashReport: String? { child.crashReport }

    /// SIGKILL under whatever load it carries.
    public func kill() async {
        await child.kill()
    }

    /// A port that was free a moment ago, for a server started later: bind to port 0, read it, close.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ChildProcess.Failure("socket() failed: \(errno)") }
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
        guard bound else { throw ChildProcess.Failure("could not bind a free port: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
