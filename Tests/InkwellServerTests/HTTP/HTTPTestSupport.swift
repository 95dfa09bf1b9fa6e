import Crypto
import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import InkwellServer
import InkwellStore
import InkwellTesting
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TemporaryDirectory {
    /// Everything below the folder (files and folders, hidden ones too), relative to it.
    func contents() -> Set<String> {
        Set(FileManager.default.subpaths(atPath: path) ?? [])
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }
}

/// Seeded bytes and their blob name.
struct TestBlob: Sendable {
    let bytes: [UInt8]
    let hash: BlobHash

    init(count: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        hash = Self.name(of: bytes)
    }

    static func name(of bytes: [UInt8]) -> BlobHash {
        BlobHash(hex: SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())!
    }

    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }
    var url: String { "/blobs/\(hash.hex)" }

    /// The bytes in chunks of `size`, the last one shorter.
    func chunks(of size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }
}

/// A live Hummingbird server with ``HTTPRoutes`` over a blob store and a web root in temporary folders, logging
/// into memory.
struct HTTPFixture: Sendable {
    let blobFolder: TemporaryDirectory
    let webFolder: TemporaryDirectory
    let blobs: BlobStore
    let metrics = ServerMetrics()
    let logs = InMemoryLogHandler()
    let routes: HTTPRoutes

    init(
        maximumBlobBytes: Int = 32 * 1024 * 1024,
        servesTestPages: Bool = false,
        startedAt: ContinuousClock.Instant = .now,
        isDraining: @escaping @Sendable () -> Bool = { false },
        storageFault: @escaping @Sendable () -> StorageFault? = { nil }
    ) throws {
        blobFolder = try TemporaryDirectory("blobs")
        webFolder = try TemporaryDirectory("web")
        blobs = try BlobStore(directory: blobFolder.path)
        let logs = logs
        routes = HTTPRoutes(
            blobs: blobs,
            metrics: metrics,
            configuration: .init(
                maximumBlobBytes: maximumBlobBytes,
                webRoot: webFolder.path,
                servesTestPages: servesTestPages
            ),
            startedAt: startedAt,
            logger: Logger(label: "inkwell.http") { _ in logs },
            isDraining: isDraining,
            storageFault: storageFault
        )
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        routes.add(to: router)
        return router
    }

    /// Runs `test` against the server on a loopback port, logging from `logLevel` up.
    func run<Value: Sendable>(
        _ setup: TestingSetup = .live,
        router: Router<BasicRequestContext>? = nil,
        logLevel: Logger.Level = .info,
        _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let logs = logs
        var logger = Logger(label: "inkwell.test") { _ in logs }
        logger.logLevel = logLevel
        let app = Application(router: router ?? self.router(), logger: logger)
        return try await app.test(setup, test)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body decoded as a JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        guard let dictionary = object as? [String: Any] else { throw RawHTTP.Failure.malformed }
        return dictionary
    }
}

/// A deliberately small HTTP/1.1 client on a blocking socket, for what the test client cannot do: send a chunked
/// body, or stop before the body ends and still read the answer. Each exchange runs on a thread of its own.
enum RawHTTP {
    enum Failure: Error {
        case connect
        case send(Int32)
        case receive(Int32)
        case malformed
    }

    struct Response: Sendable {
        var status: Int
        /// Lower-cased names.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// What follows the request head.
    enum Body: Sendable {
        /// Nothing: the head alone (perhaps announcing a body that never comes).
        case none
        /// Chunked transfer coding, pausing `pause` between chunks; the closing chunk only if `finish`.
        case chunked([[UInt8]], finish: Bool, pause: Duration = .zero)
    }

    /// Sends one request on a new connection to `localhost:port` and reads one response; a silent server fails
    /// after `timeout`.
    static func exchange(
        port: Int,
        head: String,
        body: Body = .none,
        timeout: Int = 10
    ) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { try exchangeBlocking(port: port, head: head, body: body, timeout: timeout) }
                )
            }
        }
    }

    private static func exchangeBlocking(port: Int, head: String, body: Body, timeout: Int) throws -> Response {
        let descriptor = try makeConnection(port: port, timeout: timeout)
        defer { _ = close(descriptor) }
        try sendAll(descriptor, Array(head.utf8))
        if case .chunked(let chunks, let finish, let pause) = body {
            for chunk in chunks {
                try sendAll(
                    descriptor,
                    Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
                )
                if pause > .zero { Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18) }
            }
            if finish { try sendAll(descriptor, Array("0\r\n\r\n".utf8)) }
        }
        return try readResponse(descriptor)
    }

    private static func makeConnection(port: Int, timeout: Int) throws -> Int32 {
        var hints = addrinfo()
        #if os(Linux)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var first: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo("localhost", String(port), &hints, &first) == 0 else { throw Failure.connect }
        defer { freeaddrinfo(first) }
        var candidate = first
        while let address = candidate?.pointee {
            candidate = address.ai_next
            let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard descriptor >= 0 else { continue }
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return descriptor }
            _ = close(descriptor)
        }
        throw Failure.connect
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            guard sent > 0 else { throw Failure.send(errno) }
            offset += sent
        }
    }

    private static func readResponse(_ descriptor: Int32) throws -> Response {
        var received = [UInt8]()
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expectedLength: Int?
        var response = Response(status: 0, headers: [:], body: [])
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if headEnd == nil, let end = received.firstRange(of: separator)?.upperBound {
                headEnd = end
                let lines = String(decoding: received[..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
                let statusLine = lines[0].split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed }
                response.status = status
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    response.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                expectedLength = response.headers["content-length"].flatMap { Int($0) } ?? 0
            }
            if let headEnd, let expectedLength, received.count - headEnd >= expectedLength {
                response.body = Array(received[headEnd..<(headEnd + expectedLength)])
                return response
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw count == 0 ? Failure.malformed : Failure.receive(errno) }
            received += buffer[..<count]
        }
    }
}

/// A flag tests flip while a server runs.
final class Flag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
