import CompressNIO
import Foundation
import InkwellBoardTesting
import InkwellSync
import InkwellTesting
import InkwellWire
import NIOCore
import Synchronization

/// Everything hostile connections sent that must never reach the server's log: the ids of the packs
/// they pushed (valid ones too, hidden in invalid traffic), the devices they claimed and their rooms.
final class HostileLedger: Sendable {
    private struct Contents {
        /// Each pack's id, and the case that sent it.
        var packs: [PackID: String] = [:]
        var devices: [ReplicaID: String] = [:]
        var rooms: Set<String> = []
    }

    private let contents = Mutex(Contents())

    func record(pack: PackID, by name: String) { contents.withLock { $0.packs[pack] = name } }
    func record(device: ReplicaID, by name: String) { contents.withLock { $0.devices[device] = name } }
    func record(room: String) { contents.withLock { _ = $0.rooms.insert(room) } }

    var packs: [PackID: String] { contents.withLock { $0.packs } }
    var devices: [ReplicaID: String] { contents.withLock { $0.devices } }
    var rooms: Set<String> { contents.withLock { $0.rooms } }
}

/// Deflate bodies made once and shared: compressing tens of MiB per connection would cost more than the test.
struct BombBodies: Sendable {
    /// Inflates to 32 MiB of zeros.
    let thirtyTwoMiB: [UInt8]
    /// Inflates to 9 MiB of zeros: more than the server's 8 MiB limit on pack bodies.
    let nineMiB: [UInt8]

    static let shared = BombBodies(
        thirtyTwoMiB: deflate([UInt8](repeating: 0, count: 32 << 20)),
        nineMiB: deflate([UInt8](repeating: 0, count: 9 << 20))
    )

    /// The same deflate stream `PackCodec` writes.
    static func deflate(_ plain: [UInt8]) -> [UInt8] {
        var buffer = ByteBuffer(bytes: plain)
        let compressed = try! buffer.compress(with: .deflate())
        return Array(compressed.readableBytesView)
    }
}

/// One hostile connection's means: the server, the room it targets, a device id, a seeded generator,
/// and the ledger where it notes every pack and device it sends.
struct HostileContext {
    /// The case this connection plays, as the ledger names it.
    let name: String
    let port: Int
    let room: String
    let device: ReplicaID
    /// Signs this connection's packs: the replica of its changes is the key's, as the server requires,
    /// so what it sends is refused for what it is meant to test, not for a missing signature.
    let key: AuthorKey
    var random: SeededGenerator
    let ledger: HostileLedger
    private var seq: UInt64 = 0

    init(name: String, port: Int, room: String, seed: UInt64, ledger: HostileLedger) {
        self.name = name
        self.port = port
        self.room = room
        self.random = SeededGenerator(seed: seed)
        self.key = AuthorKey(using: &random)
        self.device = key.replica
        self.ledger = ledger
        ledger.record(device: device, by: name)
    }

    /// Notes a pack id this connection is about to send.
    func record(pack: PackID) {
        ledger.record(pack: pack, by: name)
    }

    /// A connection upgraded to WebSocket, its masking keys from this context's generator. What it sends
    /// after its offending bytes is a valid hello and a valid push.
    mutating func connect() throws -> RawWebSocket {
        let socket = try RawWebSocket(port: port, random: SeededGenerator(seed: random.next()))
        let hello = SyncCodec.encode(
            .hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: device,
                agent: "inkwell-hostile/1"
            )
        )
        socket.followUp =
            RawFrame.binary(hello, mask: socket.maskKey()).bytes
            + RawFrame.binary(pushFrame(), mask: socket.maskKey()).bytes
        return socket
    }

    /// A connection upgraded and past hello. What it sends after its offending bytes is a valid push.
    mutating func connectAndHello() throws -> RawWebSocket {
        let socket = try RawWebSocket(port: port, random: SeededGenerator(seed: random.next()))
        try socket.hello(device: device)
        socket.followUp = RawFrame.binary(pushFrame(), mask: socket.maskKey()).bytes
        return socket
    }

    mutating func garbage(_ count: ClosedRange<Int>) -> [UInt8] {
        (0..<Int.random(in: count, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Encoded changes by this connection's key (or by `replica`), stamped now: what the server accepts
    /// from an honest client.
    mutating func changes(_ count: Int, replica: ReplicaID? = nil) -> [[UInt8]] {
        (0..<count).map { _ in
            seq += 1
            let points = Int.random(in: 2...40, using: &random)
            return TestStrokes.change(replica: replica ?? key.replica, seq: seq, points: points, using: &random)
        }
    }

    /// A pack the server would store if it ever got it as a proper push: noted in the ledger first. With
    /// `forging`, one change in it is made as that replica's.
    mutating func pack(
        room: String? = nil,
        replica: ReplicaID? = nil,
        forging: ReplicaID? = nil
    ) -> (
        id: PackID, bytes: [UInt8]
    ) {
        var changes = changes(Int.random(in: 1...3, using: &random), replica: replica)
        if let forging {
            changes.insert(
                contentsOf: self.changes(1, replica: forging),
                at: Int.random(in: 0...changes.count, using: &random)
            )
        }
        let bytes = PackCodec.encode(Pack(room: room ?? self.room, changes: changes), signedBy: key)
        let id = PackID(of: bytes)
        record(pack: id)
        return (id, bytes)
    }

    /// A `ClientFrame` pushing a fresh valid pack.
    mutating func pushFrame() -> [UInt8] {
        SyncCodec.encode(.push(room: room, pack: pack().bytes))
    }

    /// A `ClientFrame` pushing `pack` into this context's room.
    func pushFrame(pack: [UInt8]) -> [UInt8] {
        ProtobufWriter.clientFrame(4, ProtobufWriter.push(room: room, pack: pack))
    }

    /// The body of a valid pack, for envelopes a case takes apart.
    mutating func packBody() -> [UInt8] {
        ProtobufWriter.packBody(changes: changes(1))
    }

    /// An envelope around `body` as a case builds it, signed by this connection's key (claiming `author`
    /// instead, when given) and noted in the ledger.
    mutating func envelope(
        compression: UInt64,
        body: [UInt8],
        bodySize: UInt64,
        announcingBody length: UInt64? = nil,
        author: [UInt8]? = nil
    ) -> [UInt8] {
        let unsigned = ProtobufWriter.pack(
            compression: compression,
            body: body,
            bodySize: bodySize,
            announcingBody: length,
            room: room,
            author: author ?? key.publicKey
        )
        let pack = PackCodec.signed(unsigned, by: key)
        record(pack: PackID(of: pack))
        return pack
    }
}
