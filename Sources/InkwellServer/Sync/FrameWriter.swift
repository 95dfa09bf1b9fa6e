import NIOCore
import NIOWebSocket

/// Writes server frames to a WebSocket channel, many at a time.
///
/// The WebSocket library's writer flushes after every frame, so a connection sent a thousand small
/// frames a second costs a thousand system calls. This writer sends a batch of frames in one event
/// loop turn with one flush, and waits until that flush is done, which is also its back-pressure:
/// while it waits, the connection's queue grows and the next batch is larger.
///
/// It writes binary data frames only, fragmenting a message larger than ``maximumFrameBytes`` into
/// continuation frames as the library would; pings, pongs and closes stay with the library. Its frames
/// go through the same pipeline (the library's frame encoder), so the bytes on the wire are the same.
struct FrameWriter: Sendable {
    let channel: any Channel
    let maximumFrameBytes: Int

    /// Writes each buffer as one binary message, in order, and returns after the flush.
    func write(_ messages: [ByteBuffer]) async throws {
        guard !messages.isEmpty else { return }
        let flushed = channel.eventLoop.makePromise(of: Void.self)
        channel.eventLoop.execute { [self] in write(onLoop: messages, flushed: flushed) }
        try await flushed.futureResult.get()
    }

    /// Writes each buffer as one binary message, in order, with one flush that completes `flushed`.
    /// Call it on the channel's event loop.
    func write(onLoop messages: [ByteBuffer], flushed: EventLoopPromise<Void>) {
        channel.eventLoop.preconditionInEventLoop()
        guard !messages.isEmpty else {
            flushed.succeed()
            return
        }
        var frames: [WebSocketFrame] = []
        frames.reserveCapacity(messages.count)
        for message in messages { fragment(message, into: &frames) }
        for frame in frames.dropLast() { channel.write(frame, promise: nil) }
        channel.writeAndFlush(frames[frames.count - 1], promise: flushed)
    }

    private func fragment(_ message: ByteBuffer, into frames: inout [WebSocketFrame]) {
        guard message.readableBytes > maximumFrameBytes else {
            frames.append(WebSocketFrame(fin: true, opcode: .binary, data: message))
            return
        }
        var rest = message
        var opcode = WebSocketOpcode.binary
        while rest.readableBytes > maximumFrameBytes {
            frames.append(WebSocketFrame(fin: false, opcode: opcode, data: rest.readSlice(length: maximumFrameBytes)!))
            opcode = .continuation
        }
        frames.append(WebSocketFrame(fin: true, opcode: .continuation, data: rest))
    }
}
