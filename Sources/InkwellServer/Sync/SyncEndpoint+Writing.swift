import InkwellWire
import Logging
import NIOCore
import Prometheus

/// The writer task: what the pump hands over, in order, catch-ups and closes included.
extension SyncEndpoint {
    /// Does what the pump handed over: batches that start at a catch-up or a close, which wait for the
    /// log or the WebSocket layer. Then it goes on draining the queue itself, as the pump would, until
    /// the queue is idle: what was queued meanwhile follows without a hop back to the event loop, and
    /// the next item queued starts the pump again.
    func write(
        _ connection: Connection,
        to peer: any SyncPeer,
        frames writer: FrameWriter
    ) async -> Role {
        for await handedOver in connection.pump.handOvers {
            var batch = handedOver
            draining: while true {
                do {
                    guard try await write(batch, for: connection, to: peer, frames: writer) else { return .writer }
                } catch {
                    connection.logger.debug("write failed: \(error)")
                    return .writer
                }
                switch connection.queue.take() {
                case .items(let items): batch = items
                case .idle: break draining
                case .finished: return .writer
                }
            }
        }
        return .writer
    }

    /// Writes one batch in order, catch-ups included; false once it has closed the connection.
    func write(
        _ batch: [Outbound],
        for connection: Connection,
        to peer: any SyncPeer,
        frames writer: FrameWriter
    ) async throws -> Bool {
        var gathered = OutboundFrames()
        /// Sends the frames gathered so far, before an item that must follow them.
        func flush() async throws {
            let (frames, bytes) = gathered.take()
            try await send(frames, for: connection, to: writer)
            connection.queue.written(bytes: bytes)
        }
        var index = batch.startIndex
        while index < batch.endIndex {
            let item = batch[index]
            index += 1
            if gathered.add(item) { continue }
            switch item {
            case .frame, .presence:
                assertionFailure("frames and presence are gathered above")
            case .catchUp(let room):
                // The catch-ups queued one after another are read and written together.
                var rooms = [room]
                while index < batch.endIndex, case .catchUp(let next) = batch[index] {
                    rooms.append(next)
                    index += 1
                }
                try await flush()
                // Reads the log: in a child task, so the reads' memory goes when they end (``inChildTask(_:)``).
                try await inChildTask { [rooms] in try await self.catchUp(connection, rooms: rooms, to: writer) }
            case .close(let code, let reason):
                try await flush()
                try await peer.close(code: code, reason: CloseReason.fitted(reason))
                return false
            }
        }
        try await flush()
        return true
    }

    func send(_ buffers: [ByteBuffer], for connection: Connection, to writer: FrameWriter) async throws {
        guard !buffers.isEmpty else { return }
        try await writer.write(buffers)
        metrics.framesSent.increment(by: Int64(buffers.count))
        metrics.bytesSent.increment(by: Int64(buffers.reduce(0) { $0 + $1.readableBytes }))
    }
}
