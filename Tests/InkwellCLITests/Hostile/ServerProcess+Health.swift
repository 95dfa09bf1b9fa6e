import InkwellTesting

extension ServerProcess {
    /// The status of `GET /healthz`, over a plain socket (no HTTP client, so nothing is retried).
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
