import Foundation
import InkwellTesting

extension ServerProcess {
    /// The status of `GET /healthz`, over a plain socket (no HTTP client, so nothing is retried).
    func healthStatus() -> Int? {
        get("/healthz")?.status
    }

    /// `GET path` over a plain socket, with `headers` (lines without their CRLF): the status and the body (the
    /// server sends a length, then closes).
    func get(_ path: String, headers: [String] = []) -> (status: Int, body: String)? {
        guard let socket = try? RawSocket(port: port) else { return nil }
        defer { socket.close() }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        guard socket.send(Array(request.utf8)) else { return nil }
        var response: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while case .bytes = socket.receive(into: &response, until: deadline) {}
        let text = String(decoding: response, as: UTF8.self)
        let status = String(text.prefix(12)).split(separator: " ").dropFirst().first.flatMap { Int($0) }
        guard let status, let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        return (status, String(text[headEnd.upperBound...]))
    }
}
