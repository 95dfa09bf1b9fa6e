import Foundation
import InkwellClient
import Logging
import Synchronization

/// A device's way to the server in the simulation: `SyncClient`'s transport, whose connections are the
/// simulation's (``SimulatedLink``). Opening one while the server is down or the device is cut off
/// fails at once, as a refused TCP connection does; the client's own backoff decides when it tries again.
struct SimulatedTransport: SyncTransport {
    let client: Int
    let network: SimulationHandle

    func connect(
        to url: URL,
        options: SyncTransportOptions,
        logger: Logger,
        session: @escaping @Sendable (any SyncConnection) async throws -> Void
    ) async throws -> SyncTransportClose? {
        guard let world = network.world else { throw SimulationError("the process is gone") }
        let link = try world.openConnection(client: client, network: network)
        try await link.opened()
        do {
            try await session(link)
        } catch {
            // The WebSocket layer closes a connection whose handler failed.
            network.world?.closeConnection(link.id, code: nil, reason: "the client's session failed")
            throw error
        }
        return link.closeFrame
    }
}

/// The simulation, as one of its processes reaches it (its network): its jobs run on its own thread,
/// the only one that touches it. A process that crashed reaches it no more.
struct SimulationHandle: @unchecked Sendable {
    private unowned let simulation: Simulation
    private let process: SimulationScheduler.ProcessExecutor

    init(_ simulation: Simulation, process: SimulationScheduler.ProcessExecutor) {
        self.simulation = simulation
        self.process = process
    }

    /// The simulation, while the process lives.
    var world: Simulation? {
        precondition(simulation.scheduler.isOnSimulationThread, "the simulation runs on its own thread")
        return process.isDead ? nil : simulation
    }
}

/// One simulated connection, as the device sees it: frames from the server in order, until a close.
final class SimulatedLink: SyncConnection {
    private enum Phase {
        case opening(CheckedContinuation<Void, any Error>?)
        case open
        case closed(SyncTransportClose?)
    }

    let id: Int
    private let network: SimulationHandle
    private let phase = Mutex(Phase.opening(nil))
    private let inbox = FrameInbox()

    init(id: Int, network: SimulationHandle) {
        self.id = id
        self.network = network
    }

    /// Returns once the connection is open; throws if it closed first or the task was cancelled.
    func opened() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = phase.withLock { phase -> Result<Void, any Error>? in
                    switch phase {
                    case .opening:
                        guard !Task.isCancelled else { return .failure(CancellationError()) }
                        phase = .opening(continuation)
                        return nil
                    case .open: return .success(())
                    case .closed: return .failure(SimulationError("connection refused"))
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiting = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
                guard case .opening(let continuation) = phase else { return nil }
                phase = .opening(nil)
                return continuation
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// The server accepted the connection.
    func open() {
        let waiting = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
            guard case .opening(let continuation) = phase else { return nil }
            phase = .open
            return continuation
        }
        waiting?.resume()
    }

    /// A frame from the server arrived.
    func deliver(_ frame: [UInt8]) {
        inbox.deliver(frame)
    }

    /// The connection ended: with the server's close frame, or none when it dropped.
    func finish(_ close: SyncTransportClose?) {
        let waiting = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
            defer { phase = .closed(close) }
            guard case .opening(let continuation) = phase else { return nil }
            return continuation
        }
        waiting?.resume(throwing: SimulationError("connection refused"))
        inbox.finish()
    }

    var closeFrame: SyncTransportClose? {
        phase.withLock { phase in
            if case .closed(let close) = phase { close } else { nil }
        }
    }

    private var isClosed: Bool {
        phase.withLock { phase in
            if case .closed = phase { true } else { false }
        }
    }

    func receive(_ body: ([UInt8]) async throws -> Void) async throws {
        for await frame in inbox.frames { try await body(frame) }
    }

    func send(_ frame: [UInt8]) async throws {
        guard !isClosed, let world = network.world else { throw SimulationError("the connection is closed") }
        world.sendToServer(frame, on: id)
    }

    func close(code: UInt16, reason: String?) async throws {
        guard !isClosed else { return }
        // The server hears the close after what is on its way, and answers it with the same code.
        network.world?.closeConnection(id, code: code, reason: reason ?? "")
    }
}

/// Frames on their way to one end of a simulated connection, in the order they were sent, until it ends.
struct FrameInbox: Sendable {
    let frames: AsyncStream<[UInt8]>
    private let sink: AsyncStream<[UInt8]>.Continuation

    init() {
        (frames, sink) = AsyncStream.makeStream(of: [UInt8].self)
    }

    func deliver(_ frame: [UInt8]) {
        sink.yield(frame)
    }

    func finish() {
        sink.finish()
    }
}
