#if canImport(Glibc)
import Glibc
#endif

/// The status line of a WebSocket handshake sent as raw bytes, so a test can send the headers a browser
/// would (the WebSocket client library adds an `Origin` of its own).
enum Handshake {
    static func status(port: Int, origin: String) throws -> Int {
        let descriptor = try Loopback.connect(port: port)
        defer { close(descriptor) }
        let request = """
            GET /sync HTTP/1.1\r
            Host: 127.0.0.1:\(port)\r
            Origin: \(origin)\r
            Connection: Upgrade\r
            Upgrade: websocket\r
            Sec-WebSocket-Version: 13\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            \r

            """
        _ = request.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, $0.count - 1, 0) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 12 else { throw TestFailure("no response") }
        // "HTTP/1.1 101 ..."
        guard let status = Int(String(decoding: buffer[9..<12], as: UTF8.self)) else { throw TestFailure("bad status") }
        return status
    }
}
