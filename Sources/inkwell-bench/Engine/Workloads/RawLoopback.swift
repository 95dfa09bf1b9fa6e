import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor W5 is measured against: `count` bytes written in 64 KiB chunks to a TCP socket on
/// 127.0.0.1 and read on the other end by another thread, from connect to the last byte read.
enum RawLoopback {
    static func seconds(sending count: Int) throws -> Double {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket failed") }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else { throw BenchError("bind on 127.0.0.1 failed") }

        let done = DispatchSemaphore(value: 0)
        let received = ReceivedCount()
        DispatchQueue.global().async {
            let connection = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while total < count {
                let read = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if read <= 0 { break }
                total += read
            }
            close(connection)
            received.value = total
            done.signal()
        }

        let chunk = [UInt8](repeating: 0x5A, count: 1 << 16)
        let start = ContinuousClock.now
        let sender = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sender) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(sender, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw BenchError("connect to 127.0.0.1 failed") }
        var sent = 0
        while sent < count {
            let size = min(chunk.count, count - sent)
            let written = chunk.withUnsafeBytes { send(sender, $0.baseAddress, size, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw BenchError("send on loopback failed") }
            sent += written
        }
        done.wait()
        let elapsed = (ContinuousClock.now - start).seconds
        guard received.value == count else { throw BenchError("loopback read \(received.value) of \(count) bytes") }
        return elapsed
    }
}

/// The reader's count, handed from its thread after the semaphore.
private final class ReceivedCount: @unchecked Sendable {
    var value = 0
}
