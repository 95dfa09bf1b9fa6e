import Foundation
import InkwellServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A body that trickles in (a byte now and then, as slowloris sends it) may not hold its socket: after the
/// server's body timeout it is answered 408, or closed if its answer has gone already.
@Suite struct RequestBodyTimeoutTests {
    @Test func aTricklingUploadIsAnswered408AndClosed() async throws {
        let server = try await RunningServer.start { $0.requestBodyTimeout = .seconds(1) }
        let blob = TestBlob(count: 1_000, seed: 7)
        let head =
            "PUT \(blob.url(in: "room")) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 1000\r\n\r\n"
        let outcome = try await Trickle.run(port: server.port, head: head, body: blob.bytes)
        #expect(outcome.response.hasPrefix("HTTP/1.1 408"), "\(outcome.response)")
        #expect(outcome.response.contains(#"{"error":"the request body did not arrive in time"}"#))
        #expect(outcome.closed)
        #expect(outcome.elapsed > .milliseconds(900) && outcome.elapsed < .seconds(5), "\(outcome.elapsed)")
        // Nothing stored, nothing half-written left behind; the route that read the body saw the timeout and
        // is counted as answering 408 (its answer went nowhere: the guard's had gone first).
        let blobs = server.directory.appendingPathComponent("blobs").path
        let counted = #"inkwell_http_requests_total{method="PUT",status="408"} 1"#
        var files: [String] = []
        for _ in 0..<50 {
            files = Trickle.files(under: blobs)
            if files.isEmpty, server.server.metricsExposition.contains(counted) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(files.isEmpty, "\(files)")
        #expect(server.server.metricsExposition.contains(counted))
        await server.stop()
    }

    /// Hummingbird reads what is left of a body after the answer, however slowly it comes: the timeout holds.
    @Test func aTricklingBodyNobodyReadsIsClosedAfterItsAnswer() async throws {
        let server = try await RunningServer.start { $0.requestBodyTimeout = .seconds(1) }
        let head = "POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 1000\r\n\r\n"
        let outcome = try await Trickle.run(port: server.port, head: head, body: Array(repeating: 0x61, count: 1_000))
        #expect(outcome.response.hasPrefix("HTTP/1.1 404"), "\(outcome.response)")
        #expect(outcome.closed)
        #expect(outcome.elapsed < .seconds(5), "\(outcome.elapsed)")
        await server.stop()
    }

    @Test func aBodyThatArrivesInTimeIsStored() async throws {
        let server = try await RunningServer.start { $0.requestBodyTimeout = .seconds(2) }
        let blob = TestBlob(count: 4_000, seed: 8)
        let response = try await RawHTTP.exchange(
            port: server.port,
            head:
                "PUT \(blob.url(in: "room")) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: .chunked(blob.chunks(of: 1_000), finish: true, pause: .milliseconds(100))
        )
        #expect(response.status == 201)
        await server.stop()
    }
}

/// A client on a blocking socket that sends a request head and then its body a byte every 100 ms, reading
/// whatever comes back, until the server closes the connection or 10 s pass.
enum Trickle {
    struct Outcome: Sendable {
        var response: String
        /// Whether the server closed the connection.
        var closed: Bool
        var elapsed: Duration
    }

    static func run(port: Int, head: String, body: [UInt8]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(port: port, head: head, body: body) })
            }
        }
    }

    /// Regular files below `folder`.
    static func files(under folder: String) -> [String] {
        (FileManager.default.subpaths(atPath: folder) ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }
    }

    private static func runBlocking(port: Int, head: String, body: [UInt8]) throws -> Outcome {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let descriptor = try Loopback.connect(port: port)
        defer { close(descriptor) }
        var wait = timeval(tv_sec: 0, tv_usec: 100_000)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let start = ContinuousClock.now
        _ = Array(head.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var next = 0
        while ContinuousClock.now - start < .seconds(10) {
            if next < body.count {
                _ = [body[next]].withUnsafeBytes { send(descriptor, $0.baseAddress, 1, flags) }
                next += 1
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return Outcome(
                    response: String(decoding: received, as: UTF8.self),
                    closed: true,
                    elapsed: ContinuousClock.now - start
                )
            }
        }
        return Outcome(
            response: String(decoding: received, as: UTF8.self),
            closed: false,
            elapsed: ContinuousClock.now - start
        )
    }
}
