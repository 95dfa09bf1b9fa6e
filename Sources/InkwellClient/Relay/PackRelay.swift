public import Foundation
public import InkwellSync
public import InkwellWire
public import Logging

/// Keeps one room's pack log the same on two servers, as one more replica would: every pack that
/// either holds, the other gets, byte for byte. What a LAN hub runs towards its upstream server, and a
/// hub towards another hub it found.
///
/// It never opens a pack: they stay signed by their authors (and sealed, in an encrypted room), and each
/// server checks them as it checks any push. Neither side is trusted more than the other. A pack is
/// known by its id (the SHA-256 of its bytes), so a pack that comes back is not sent again, and a server
/// stores one pushed twice once.
///
/// Nothing is lost to a cut: each side's watermark moves past a pack only once the other side has
/// acknowledged it, and after a reconnection each side's packs come again from there.
public actor PackRelay {
    /// One of the two servers.
    public struct Side: Sendable {
        /// Its sync endpoint, `ws://host:port/sync`.
        public var url: URL
        /// The capability the room is subscribed with there (empty for an open room).
        public var capability: String

        public init(url: URL, capability: String = "") {
            self.url = url
            self.capability = capability
        }
    }

    /// What has been relayed so far.
    public struct Statistics: Hashable, Sendable {
        /// Packs pushed to the first side and acknowledged by it, and to the second.
        public var toFirst = 0
        public var toSecond = 0
        /// Times both sides were connected and subscribed.
        public var sessions = 0
    }

    public let room: String
    private let sides: [Side]
    private let device: ReplicaID
    private let logger: Logger
    /// Each side's position read up to, with every pack up to it acknowledged by the other side.
    private var watermarks: [UInt64] = [0, 0]
    public private(set) var statistics = Statistics()
    /// Ids of packs either side is known to hold, so an echo is not sent back.
    private var known = Set<PackID>()
    private let pushesPerSecond: Double

    public init(
        room: String,
        first: Side,
        second: Side,
        device: ReplicaID? = nil,
        pushesPerSecond: Double = 100,
        logger: Logger = Logger(label: "inkwell.relay")
    ) {
        self.room = room
        self.sides = [first, second]
        var generator = SystemRandomNumberGenerator()
        self.device = device ?? ReplicaID(using: &generator)
        self.pushesPerSecond = max(pushesPerSecond, 1)
        var logger = logger
        logger[metadataKey: "room"] = "\(room)"
        self.logger = logger
    }

    /// Relays until the task is cancelled, reconnecting after a cut with a growing pause (up to `maximumPause`).
    public func run(maximumPause: Duration = .seconds(5)) async {
        var pause = Duration.milliseconds(200)
        while !Task.isCancelled {
            do {
                try await session()
                pause = .milliseconds(200)
            } catch is CancellationError {
                return
            } catch {
                logger.info("relay cut; reconnecting", metadata: ["reason": "\(error)", "pause": "\(pause)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, maximumPause)
        }
    }

    /// One connection to each side, until either ends.
    private func session() async throws {
        let first = try await RelayEnd.open(sides[0], room: room, after: watermarks[0], device: device, logger: logger)
        defer { Task { await first.socket.close() } }
        let second = try await RelayEnd.open(sides[1], room: room, after: watermarks[1], device: device, logger: logger)
        defer { Task { await second.socket.close() } }
        statistics.sessions += 1
        logger.info("relaying", metadata: ["first": "\(sides[0].url)", "second": "\(sides[1].url)"])
        let ends = [first, second]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<2 {
                group.addTask { try await self.pump(from: ends[index], index: index, to: ends[1 - index]) }
            }
            // The first to end (a cut, a refusal) ends the session; the other is cancelled.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads one side: its packs go to the other side, in order and paced; acks of what was pushed to it
    /// move the other side's watermark.
    private func pump(from source: RelayEnd, index: Int, to target: RelayEnd) async throws {
        var pacer = PushPacer(rate: pushesPerSecond, burst: pushesPerSecond / 5, now: .now)
        for try await message in source.socket.messages {
            switch message {
            case .packs(let room, let packs, _) where room == self.room:
                for pack in packs { try await forward(pack, from: index, to: target, pacer: &pacer) }
            case .rebase(let room, let parts, _, _) where room == self.room:
                for part in parts { try await forward(part, from: index, to: target, pacer: &pacer) }
            case .ack(let room, let pack, _) where room == self.room:
                acknowledged(pack, by: index)
            case .error(let code, let message, let fatal, _):
                guard fatal else {
                    logger.warning(
                        "a side refused a relayed pack",
                        metadata: ["code": "\(code)", "message": "\(message)"]
                    )
                    continue
                }
                throw RelayError(description: "\(sides[index].url) closed the relay: \(message)")
            default:
                continue
            }
        }
        throw RelayError(description: "\(sides[index].url) ended the connection")
    }

    /// Packs pushed to each side and not yet acknowledged, in push order: the pack's id, and where it
    /// sits on the side it came from.
    private var pending: [[(id: PackID, position: UInt64)]] = [[], []]

    private func forward(_ pack: StoredPack, from index: Int, to target: RelayEnd, pacer: inout PushPacer) async throws
    {
        let id = PackID(of: pack.bytes)
        guard known.insert(id).inserted else {
            // Held on both sides already (it came back, or was sent before a cut): nothing to wait for.
            if pending[1 - index].isEmpty { watermarks[index] = max(watermarks[index], pack.serverSeq) }
            return
        }
        let delay = pacer.delay(now: .now)
        if delay > .zero { try await Task.sleep(for: delay) }
        pending[1 - index].append((id, pack.serverSeq))
        try await target.socket.send(.push(room: room, pack: pack.bytes))
    }

    /// `side` acknowledged `pack`: the watermark of the side it came from moves past every pack of it
    /// that is now held by both.
    private func acknowledged(_ pack: PackID, by side: Int) {
        guard let at = pending[side].firstIndex(where: { $0.id == pack }) else { return }
        let source = 1 - side
        pending[side][at].id = PackID(of: [])
        if side == 0 { statistics.toFirst += 1 } else { statistics.toSecond += 1 }
        // The acknowledged prefix.
        let emptyID = PackID(of: [])
        while let first = pending[side].first, first.id == emptyID {
            watermarks[source] = max(watermarks[source], first.position)
            pending[side].removeFirst()
        }
    }
}

/// Why a relay session ended.
struct RelayError: Error, CustomStringConvertible {
    let description: String
}

/// One side of a relay: a socket greeted and subscribed to the room with rights to push.
struct RelayEnd: Sendable {
    let socket: SyncSocket

    static func open(
        _ side: PackRelay.Side,
        room: String,
        after: UInt64,
        device: ReplicaID,
        logger: Logger
    ) async throws -> RelayEnd {
        let socket = try await SyncSocket.connect(
            url: side.url.absoluteString,
            maximumFrameBytes: SyncProtocol.maximumFrameBytes,
            logger: logger
        )
        try await socket.send(
            .hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: device,
                agent: "inkwell-relay/1"
            )
        )
        try await socket.send(.subscribe(room: room, after: after, capability: side.capability))
        // What the server says before the room's packs: its welcome, then the room's access.
        for try await message in socket.messages {
            switch message {
            case .access(room, let rights, _):
                guard rights >= .edit else {
                    await socket.close()
                    throw RelayError(
                        description: "\(side.url) lets the relay only view \(room): it needs a link that edits"
                    )
                }
                return RelayEnd(socket: socket)
            case .error(_, let message, _, let errorRoom) where errorRoom == room || errorRoom.isEmpty:
                await socket.close()
                throw RelayError(description: "\(side.url) refused \(room): \(message)")
            default:
                continue
            }
        }
        throw RelayError(description: "\(side.url) closed before it let the relay into \(room)")
    }
}
