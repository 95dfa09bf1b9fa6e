import Foundation
import HTTPTypes
import InkwellBoardTesting
import InkwellClient
import InkwellSync
import InkwellWire
import Logging
import Synchronization

/// A protocol-level peer for tests: sends frames and keeps what arrives, in order.
final class TestPeer: Sendable {
    let socket: SyncSocket
    let device: ReplicaID
    private let inbox = Mutex<[ServerMessage]>([])
    private let finished = Mutex(false)

    private init(socket: SyncSocket, device: ReplicaID) {
        self.socket = socket
        self.device = device
        Task { [weak self] in
            do {
                for try await message in socket.messages {
                    guard let self else { return }
                    self.inbox.withLock { $0.append(message) }
                }
            } catch {}
            self?.finished.withLock { $0 = true }
        }
    }

    static func connect(url: String, device: ReplicaID, headers: [String: String] = [:]) async throws -> TestPeer {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { throw TestFailure("bad header name \(name)") }
            fields[name] = value
        }
        var logger = Logger(label: "test.peer")
        logger.logLevel = .critical
        return TestPeer(socket: try await SyncSocket.connect(url: url, headers: fields, logger: logger), device: device)
    }

    func send(_ message: ClientMessage) async throws {
        try await socket.send(message)
    }

    /// Subscribes to a room that holds nothing yet and waits for the server to say there is nothing to
    /// catch up on: from then on every pack it is sent was committed after.
    func subscribeToEmpty(_ room: String) async throws {
        try await subscribe(room)
        _ = try await next { if case .progress(_, _, 0, 0) = $0 { true } else { false } }
    }

    /// Waits for the presence that says `device` left `room`'s members, and returns it.
    func leaving(of device: ReplicaID) async throws -> Presence {
        guard
            case .presence(let left) = try await next(where: {
                if case .presence(let p) = $0 { p.device == device && p.name.isEmpty } else { false }
            })
        else {
            throw TestFailure("no leaving presence")
        }
        return left
    }

    /// Subscribes and takes the server's answer, the room's `access`; throws when it is an error.
    @discardableResult
    func subscribe(_ room: String, after: UInt64 = 0, capability: String = "") async throws -> Rights {
        try await send(.subscribe(room: room, after: after, capability: capability))
        let answer = try await next { message in
            switch message {
            case .access(room, _, _): true
            case .error(_, _, _, room): true
            default: false
            }
        }
        guard case .access(_, let rights, _) = answer else { throw TestFailure("subscribe refused: \(answer)") }
        return rights
    }

    /// Takes the first message that matches, waiting up to `timeout`; earlier ones that do not match stay.
    func next(
        within timeout: Duration = .seconds(10),
        where matches: (ServerMessage) -> Bool = { _ in true }
    ) async throws -> ServerMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found: ServerMessage? = inbox.withLock { inbox in
                guard let index = inbox.firstIndex(where: matches) else { return nil }
                return inbox.remove(at: index)
            }
            if let found { return found }
            if finished.withLock({ $0 }) { throw TestFailure("connection ended while waiting") }
            guard ContinuousClock.now < deadline else { throw TestFailure("nothing arrived within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits `duration` and returns what matched meanwhile (without taking it).
    func received(during duration: Duration, where matches: (ServerMessage) -> Bool) async throws -> [ServerMessage] {
        try await Task.sleep(for: duration)
        return inbox.withLock { $0.filter(matches) }
    }

    /// Everything received and not yet taken.
    func drain() -> [ServerMessage] {
        inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
    }

    var hasEnded: Bool { finished.withLock { $0 } }
}

/// Packs of one change each, by a new author each, stamped now (``TestStrokes/pack(room:size:using:)``).
enum TestPacks {
    static func make(
        room: String,
        size: Int = 64,
        using generator: inout some RandomNumberGenerator
    ) -> (id: PackID, bytes: [UInt8]) {
        TestStrokes.pack(room: room, size: size, using: &generator)
    }
}

extension ServerMessage {
    var isAck: Bool {
        if case .ack = self { true } else { false }
    }

    var isPacks: Bool {
        if case .packs = self { true } else { false }
    }

    /// A single presence or a batch.
    var isPresence: Bool { !presences.isEmpty }

    /// The presence this message carries, alone or batched.
    var presences: [Presence] {
        switch self {
        case .presence(let presence): [presence]
        case .presences(let presences): presences
        default: []
        }
    }

    var isError: Bool {
        if case .error = self { true } else { false }
    }

    /// The positions a `packs` frame carries.
    var positions: [UInt64] {
        if case .packs(_, let packs, _) = self { packs.map(\.serverSeq) } else { [] }
    }
}
