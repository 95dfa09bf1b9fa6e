import Crypto
import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import InkwellServer
import InkwellStore
import InkwellTesting
import InkwellWire
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

    /// Writes `text` to `name` below the folder, making the folders it names.
    func write(_ name: String, _ text: String) throws {
        let file = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
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

    /// The blob's address in `room`.
    func url(in room: String) -> String { "/rooms/\(room)/blobs/\(hash.hex)" }

    /// The bytes in chunks of `size`, the last one shorter.
    func chunks(of size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }
}

/// A live Hummingbird server with ``HTTPRoutes`` over a blob store, a pack log and a web root in temporary
/// folders, logging into memory.
struct HTTPFixture: Sendable {
    let blobFolder: TemporaryDirectory
    let webFolder: TemporaryDirectory
    let logFolder: TemporaryDirectory
    let blobs: BlobStore
    /// The rooms' access and which room holds which blob.
    let log: PackLog
    let metrics = ServerMetrics()
    let logs = InMemoryLogHandler()
    let routes: HTTPRoutes

    init(
        maximumBlobBytes: Int = 32 * 1024 * 1024,
        maximumBlobBytesPerRoom: Int = 256 * 1024 * 1024,
        blobBytesPerSecondPerAddress: Double = 8 * 1024 * 1024,
        blobByteBurstPerAddress: Double = 64 * 1024 * 1024,
        openRooms: Bool = false,
        servesTestPages: Bool = false,
        startedAt: ContinuousClock.Instant = .now,
        isDraining: @escaping @Sendable () -> Bool = { false },
        storageFault: @escaping @Sendable () -> StorageFault? = { nil }
    ) throws {
        blobFolder = try TemporaryDirectory("blobs")
        webFolder = try TemporaryDirectory("web")
        logFolder = try TemporaryDirectory("log")
        blobs = try BlobStore(directory: blobFolder.path)
        log = try PackLog(path: logFolder.path + "/packs.sqlite")
        let logs = logs
        routes = HTTPRoutes(
            blobs: blobs,
            log: log,
            metrics: metrics,
            configuration: .init(
                maximumBlobBytes: maximumBlobBytes,
                maximumBlobBytesPerRoom: maximumBlobBytesPerRoom,
                blobBytesPerSecondPerAddress: blobBytesPerSecondPerAddress,
                blobByteBurstPerAddress: blobByteBurstPerAddress,
                openRooms: openRooms,
                webRoot: webFolder.path,
                servesTestPages: servesTestPages
            ),
            startedAt: startedAt,
            logger: Logger(label: "inkwell.http") { _ in logs },
            isDraining: isDraining,
            storageFault: storageFault
        )
    }

    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        routes.add(to: router)
        return router
    }

    /// Runs `test` against the server on a loopback port, logging from `logLevel` up.
    func run<Value: Sendable>(
        _ setup: TestingSetup = .live,
        router: Router<ServerRequestContext>? = nil,
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
        /// The bytes as they are, after a head that declares their length.
        case whole([UInt8])
        /// Chunked transfer coding: the first chunk, then the rest and the closing chunk once `gate` is
        /// signalled (or after 10 s).
        case gated([[UInt8]], gate: DispatchSemaphore)
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
        if case .whole(let bytes) = body { try sendAll(descriptor, bytes) }
        if case .gated(let chunks, let gate) = body {
            for (index, chunk) in chunks.enumerated() {
                if index == 1 { _ = gate.wait(timeout: .now() + 10) }
                try sendAll(
                    descriptor,
                    Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
                )
            }
            try sendAll(descriptor, Array("0\r\n\r\n".utf8))
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

extension RawHTTP {
    /// `PUT` of `blob` to `room` with its length declared, on a connection of its own: a refusal that
    /// closes the connection (413, 429) leaves nothing for the next request to trip over.
    static func put(_ blob: TestBlob, in room: String, capability: Capability?, port: Int) async throws -> Response {
        let authorization = capability.map { "Authorization: Bearer \($0.text)\r\n" } ?? ""
        return try await exchange(
            port: port,
            head: "PUT \(blob.url(in: room)) HTTP/1.1\r\nHost: localhost\r\n\(authorization)"
                + "Content-Length: \(blob.bytes.count)\r\n\r\n",
            body: .whole(blob.bytes)
        )
    }

    /// The body of a JSON error: its words.
    static func error(_ response: Response) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["error"] as? String
    }
}

/// A guarded room's capabilities, registered in a fixture's pack log as a device that made the board
/// would register them.
struct TestRoom: Sendable {
    let name: String
    let admin: Capability
    let edit: Capability
    let view: Capability

    /// Registers a new room named `name` in `log`.
    static func register(_ name: String, in log: PackLog) async throws -> TestRoom {
        let room = TestRoom(
            name: name,
            admin: .mint(.admin),
            edit: .mint(.edit),
            view: .mint(.view)
        )
        let hashes = RoomAccess.Hashes(admin: room.admin.hash, edit: room.edit.hash, view: room.view.hash)
        guard try await log.register(room: name, hashes: hashes) == .created else {
            throw TestFailure("the room \(name) exists already")
        }
        return room
    }
}

extension TestClientProtocol {
    /// `PUT` of `blob` to `room`, with `capability` as its bearer token when there is one.
    func put(_ blob: TestBlob, in room: String, as capability: Capability?) async throws -> TestResponse {
        try await execute(uri: blob.url(in: room), method: .put, headers: capability?.bearer ?? [:], body: blob.buffer)
    }

    /// `GET` (or another method without a body) of `blob` from `room`.
    func get(
        _ blob: TestBlob,
        in room: String,
        as capability: Capability?,
        method: HTTPRequest.Method = .get
    ) async throws -> TestResponse {
        try await execute(uri: blob.url(in: room), method: method, headers: capability?.bearer ?? [:])
    }
}

extension Capability {
    /// `Authorization: Bearer CAPABILITY`.
    var bearer: HTTPFields { [.authorization: "Bearer \(text)"] }
}

/// A flag tests flip while a server runs.
final class Flag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
