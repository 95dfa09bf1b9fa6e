import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain blocking TCP connection to 127.0.0.1, so a test controls every byte it sends. It may leave
/// from another loopback address (Linux routes all of 127.0.0.0/8 to the loopback interface), so a test
/// can play a second client machine.
///
/// Sends never raise SIGPIPE and give up after a few seconds; reads wait with `poll` up to a deadline,
/// and tell end of stream and reset apart from silence.
final class RawSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one read saw.
    enum Received: Equatable {
        case bytes(Int)
        /// The peer closed its side (FIN).
        case endOfStream
        /// The peer dropped the connection (RST), e.g. after closing with our bytes unread.
        case reset
        case timedOut
    }

    private let descriptor: Int32
    private var isOpen = true

    /// Connects to 127.0.0.1:`port`, from `source` (an IPv4 loopback address) when given.
    init(port: Int, source: String? = nil, sendTimeout: Duration = .seconds(5)) throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_port = 0
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard bound else {
                let code = errno
                closeDescriptor(descriptor)
                throw Failure(description: "bind() to \(source) failed: errno \(code)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                connect(descriptor, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let code = errno
            closeDescriptor(descriptor)
            throw Failure(description: "connect() to port \(port) failed: errno \(code)")
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let seconds = sendTimeout.components.seconds
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        if isOpen { closeDescriptor(descriptor) }
    }

    /// Writes all of `bytes`; false if the peer has gone (or stopped reading for the send timeout).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                sendBytes(descriptor, buffer.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Appends what arrives to `buffer`, waiting at most until `deadline`.
    func receive(into buffer: inout [UInt8], until deadline: ContinuousClock.Instant) -> Received {
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: remaining.wholeMilliseconds + 1)
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .reset
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return .bytes(count)
            }
            if count == 0 { return .endOfStream }
            if errno == EINTR || errno == EAGAIN { continue }
            return .reset
        }
    }

    /// Closes our side now.
    func close() {
        guard isOpen else { return }
        isOpen = false
        closeDescriptor(descriptor)
    }
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}

/// `send` without SIGPIPE: a peer that hung up is an answer, not a crash.
private func sendBytes(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(descriptor, start, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(descriptor, start, count, 0)
    #endif
}
