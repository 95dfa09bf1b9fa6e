import NIOCore
import Prometheus

/// Drains a connection's ``OutboundQueue`` into its channel from the channel's event loop.
///
/// Every frame used to wake the connection's writer task, which handed the frames back to the event
/// loop to write: two hops through the cooperative thread pool per batch, and under load each hop
/// waited behind every other connection's tasks (BENCHMARKS.md, "Server under load"). Now whoever
/// queues into an idle queue asks the event loop to drain it (``start(_:)``). The loop writes what is
/// waiting with one flush, and when that flush is done drains again, so a connection has at most one
/// flush in flight: that is its back-pressure, as before, and while it waits the next batch grows.
///
/// Presence can be held: presence that finds the queue idle waits ``presenceHold`` for more presence,
/// or for a pack or an ack to ride with, so that a member receives a few frames a second from a busy
/// room instead of one per sender's move. Anything else is sent at once, with what presence waits.
///
/// Catch-ups read the log, and closes go through the WebSocket layer: both wait, so the pump hands a
/// batch over from the first of them on (``handOvers``) to the connection's writer task. That task
/// then drains the queue itself until a take finds it idle; the next item queued starts the pump.
final class OutboundPump: Sendable {
    let queue: OutboundQueue
    let writer: FrameWriter
    let metrics: ServerMetrics
    /// Batches for the writer task, each starting at a catch-up or a close. It ends when the queue is
    /// finished and drained, or when a write fails.
    let handOvers: AsyncStream<[Outbound]>
    private let handOver: AsyncStream<[Outbound]>.Continuation

    /// How long presence that finds the queue idle waits for more (``OutboundQueue/holdsPresence``).
    let presenceHold: TimeAmount

    init(queue: OutboundQueue, writer: FrameWriter, presenceHold: TimeAmount = .zero, metrics: ServerMetrics) {
        self.queue = queue
        self.writer = writer
        self.presenceHold = presenceHold
        self.metrics = metrics
        (handOvers, handOver) = AsyncStream.makeStream(of: [Outbound].self)
    }

    private var eventLoop: any EventLoop { writer.channel.eventLoop }

    /// Starts a drain if the queue's answer asks for one: now, or after the presence hold.
    func start(_ admission: OutboundQueue.Admission) {
        switch admission {
        case .started:
            eventLoop.execute { self.drain() }
        case .held(let hold):
            eventLoop.scheduleTask(in: presenceHold) {
                if self.queue.claim(hold: hold) { self.drain() }
            }
        case .queued, .refused:
            break
        case .overflowed:
            assertionFailure("an overflowed queue drops its connection (Connection.start)")
        }
    }

    /// Writes everything waiting, up to the first item that must wait for something.
    private func drain() {
        let batch: [Outbound]
        switch queue.take() {
        case .idle:
            return
        case .finished:
            handOver.finish()
            return
        case .items(let items):
            batch = items
        }
        var gathered = OutboundFrames()
        for (index, item) in batch.enumerated() where !gathered.add(item) {
            // The writer task's frames go through this loop after these: the order holds.
            let (frames, bytes) = gathered.take()
            write(frames, bytes: bytes, then: nil)
            handOver.yield(Array(batch[index...]))
            return
        }
        let (frames, bytes) = gathered.take()
        write(frames, bytes: bytes) { self.drain() }
    }

    /// Writes with one flush; when it is done, counts the bytes out of the queue and runs `next`.
    private func write(_ frames: [ByteBuffer], bytes: Int, then next: (@Sendable () -> Void)?) {
        guard !frames.isEmpty else {
            next?()
            return
        }
        let flushed = eventLoop.makePromise(of: Void.self)
        writer.write(onLoop: frames, flushed: flushed)
        metrics.framesSent.increment(by: Int64(frames.count))
        metrics.bytesSent.increment(by: Int64(frames.reduce(0) { $0 + $1.readableBytes }))
        flushed.futureResult.whenComplete { [queue, handOver] result in
            queue.written(bytes: bytes)
            switch result {
            case .success: next?()
            // The connection is gone: its tasks end on the closed socket and the finished hand-overs.
            case .failure: handOver.finish()
            }
        }
    }
}
