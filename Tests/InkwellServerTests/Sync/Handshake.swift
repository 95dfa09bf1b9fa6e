#if canImport(Glibc)
import Glibc
#endif

/// The status line of a WebSocket handshake sent as raw bytes, so a test can send the headers a browser
/// would (the WebSocket client library adds an `Origin` of its own).
enum Handshake {
    static func status(port: Int, origin: String) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect() failed") }
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
