import Crypto
import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W1 as the page draws it: W1's 1,000 points from a pen sampled at ``LiveInk/penHertz``, shown
    /// once per animation frame. Each frame sends a presence carrying the ink not saved yet (from the last
    /// saved point on); every ``LiveInk/checkpointMilliseconds`` the ink drawn since is saved as a change
    /// (an addStroke first, appendPoints after), pushed as one signed pack; pen-up saves the rest and sends
    /// a presence without ink. The anchors get the same batching: one update per frame
    /// (Benchmarks/anchor_run.py `w1_live`).
    ///
    /// Figures per point: the bytes a remote peer receives (presence and packs) and the bytes made durable
    /// (the packs), uncompressed and with each message deflated; the author's time (presence encoded,
    /// changes made, packed and signed) and the remote peer's (presence decoded with its ink, packs
    /// verified, inflated and applied). The same again with presence and packs sealed, as in an encrypted
    /// room, which the libraries have no counterpart of.
    ///
    /// Floors, while every saved change travels in a signed pack (docs/ARCHITECTURE.md, "Why a signature
    /// per pack"): Ed25519 alone signing and verifying messages of the packs' sizes, per point; and for the
    /// bytes, the packs as sent plus, per frame, the two fields a presence cannot do without, its room and
    /// its device (the server routes on them, and a sealed presence is bound to them).
    func w1Live() -> [Figure] {
        let (points, style) = Self.w1Stroke()
        let plan = LiveInk(count: points.count)
        var random = SplitMix64(seed: 12)
        let key = RoomKey.generate(using: &random)
        var figures: [Figure] = []
        for sealed in [false, true] {
            let prefix = sealed ? "live_sealed_" : "live_"
            let roomKey = sealed ? key : nil
            var sent = LiveInk.Sent()
            let author = medianSeconds(runs: runs, setup: { BenchReplica(random: &random) }) { replica in
                sent = plan.draw(points, style: style, on: &replica, key: roomKey, compression: .deflate)
            }
            sent.relay()
            let apply = medianSeconds(runs: runs, setup: { BenchReplica(random: &random) }) { remote in
                plan.receive(sent, on: &remote, key: roomKey)
            }
            var check = BenchReplica(random: &random)
            plan.receive(sent, on: &check, key: roomKey)
            let stroke = StrokeID(change: ChangeID(replica: sent.author, seq: 1))
            precondition(check.board.points(of: stroke) == points, "the remote peer has the stroke")
            var plain = BenchReplica(random: &random)
            var uncompressed = plan.draw(points, style: style, on: &plain, key: roomKey, compression: .none)
            uncompressed.relay()
            let perPoint = Double(points.count)
            let presence = Double(uncompressed.presences.reduce(0) { $0 + $1.count })
            let presenceDeflated = Double(
                uncompressed.presences.reduce(0) { $0 + PackCodec.compress($1, .deflate).bytes.count }
            )
            let packs = Double(uncompressed.packs.reduce(0) { $0 + $1.count })
            let packsDeflated = Double(sent.packs.reduce(0) { $0 + $1.count })
            figures += [
                Figure(workload: "W1", figure: prefix + "remote_bytes_per_point", value: (presence + packs) / perPoint),
                Figure(
                    workload: "W1",
                    figure: prefix + "remote_deflated_bytes_per_point",
                    value: (presenceDeflated + packsDeflated) / perPoint
                ),
                Figure(workload: "W1", figure: prefix + "presence_bytes_per_point", value: presence / perPoint),
                Figure(workload: "W1", figure: prefix + "durable_bytes_per_point", value: packs / perPoint),
                Figure(
                    workload: "W1",
                    figure: prefix + "durable_deflated_bytes_per_point",
                    value: packsDeflated / perPoint
                ),
                Figure(workload: "W1", figure: prefix + "author_us_per_point", value: author * 1e6 / perPoint),
                Figure(workload: "W1", figure: prefix + "remote_us_per_point", value: apply * 1e6 / perPoint),
            ]
            if !sealed {
                let (sign, verify) = Self.ed25519(sent.packs, runs: runs)
                // Each a length-delimited field: a one-byte key, a one-byte length, the bytes.
                let routing = 2 + LiveInk.room.utf8.count + 2 + 16
                let floor = Double(routing * sent.presences.count) + packsDeflated
                figures += [
                    Figure(workload: "W1", figure: "live_frames", value: Double(sent.presences.count)),
                    Figure(workload: "W1", figure: "live_checkpoints", value: Double(sent.packs.count)),
                    Figure(
                        workload: "W1",
                        figure: "live_presence_ink_bytes_per_point",
                        value: Double(uncompressed.inkBytes) / perPoint
                    ),
                    Figure(workload: "W1", figure: "live_remote_floor_bytes_per_point", value: floor / perPoint),
                    Figure(workload: "W1", figure: "live_sign_floor_us_per_point", value: sign * 1e6 / perPoint),
                    Figure(workload: "W1", figure: "live_verify_floor_us_per_point", value: verify * 1e6 / perPoint),
                ]
            }
        }
        return figures
    }

    /// Seconds Ed25519 alone takes to sign each message, and to verify each signature: medians of `runs`.
    private static func ed25519(_ messages: [[UInt8]], runs: Int) -> (sign: Double, verify: Double) {
        let key = Curve25519.Signing.PrivateKey()
        var signatures: [Data] = []
        let sign = medianSeconds(runs: runs) {
            signatures = messages.map { try! key.signature(for: $0) }
        }
        var valid = true
        let verify = medianSeconds(runs: runs) {
            for (message, signature) in zip(messages, signatures) {
                valid = key.publicKey.isValidSignature(signature, for: message) && valid
            }
        }
        precondition(valid, "every signature verifies")
        return (sign, verify)
    }
}

/// The page's live ink on a timeline: which points each animation frame's presence carries, and which
/// each saved change does (js/app/tools/pen.js, js/app/ink-checkpoints.js).
struct LiveInk {
    /// A pen's sampling rate (an Apple Pencil's or a Wacom's; a mouse gives 60–125).
    static let penHertz = 240
    /// Animation frames per second: presence goes at most once per frame.
    static let framesPerSecond = 60
    /// How often the ink drawn so far becomes a change (js/app/tools/pen.js `CHECKPOINT_INTERVAL`).
    static let checkpointMilliseconds = 250
    /// What the page's presence says besides the ink: its room, name and board.
    static let room = "w1LiveRoom0123456789ab"
    static let name = "Quiet Otter"
    static let board: BoardID = "main"

    /// A frame: the points drawn by then, and whether a checkpoint falls on it.
    struct Frame {
        let drawn: Int
        let checkpoint: Bool
    }

    /// What the author sent: each presence (its client frame, then, once relayed, the server frame a
    /// receiver gets), each pack as pushed.
    struct Sent {
        var author = ReplicaID(high: 0, low: 0)
        var presences: [[UInt8]] = []
        /// The bytes of the ink in the presences (their encoded `Points`), of all their bytes.
        var inkBytes = 0
        var packs: [[UInt8]] = []

        /// The server's part, not timed with the author's: each client frame's presence relayed in a
        /// server frame of its own, as a receiver with nobody else drawing gets it.
        mutating func relay() {
            presences = presences.map { frame in
                guard case .presence(let presence) = try! SyncCodec.decodeClient(frame) else {
                    preconditionFailure("a presence frame")
                }
                return SyncCodec.presenceFrame([SyncCodec.encodePresence(presence)])
            }
        }
    }

    let frames: [Frame]

    init(count: Int) {
        let perFrame = Self.penHertz / Self.framesPerSecond
        let framesPerCheckpoint = Self.checkpointMilliseconds * Self.framesPerSecond / 1_000
        var frames: [Frame] = []
        var frame = 1
        while frames.last?.drawn != count {
            frames.append(Frame(drawn: min(count, frame * perFrame + 1), checkpoint: frame % framesPerCheckpoint == 0))
            frame += 1
        }
        self.frames = frames
    }

    /// Draws `points` as the page does, on `replica`: presence each frame, a change at each checkpoint and
    /// at pen-up, each change pushed as a pack of its own. Each presence carries the ink from the last saved
    /// point on, encoded as it grows.
    func draw(
        _ points: [Point],
        style: StrokeStyle,
        on replica: inout BenchReplica,
        key: RoomKey?,
        compression: PackCodec.Compression
    ) -> Sent {
        var sent = Sent(author: replica.replica)
        sent.presences.reserveCapacity(frames.count + 1)
        var saved = 0
        var stroke: StrokeID?
        // The ink not saved yet, from the last saved point on, encoded as it grows (`InkEncoder`).
        var unsaved = InkEncoder()
        var presented = 0
        func save(through drawn: Int) {
            guard drawn > saved else { return }
            let fresh = Array(points[saved..<drawn])
            let operation: BoardOperation =
                if let stroke { .appendPoints(stroke, points: fresh, pressures: nil) } else {
                    .addStroke(style, points: fresh, pressures: nil)
                }
            let change = replica.commit([operation])
            if stroke == nil { stroke = replica.stroke(seq: replica.seq) }
            let pack = Pack(room: Self.room, changes: [change])
            sent.packs.append(PackCodec.encode(pack, signedBy: replica.key, compression: compression, sealedWith: key))
            saved = drawn
            unsaved = InkEncoder()
            presented = saved - 1
        }
        func present(through drawn: Int?) {
            let cursor = points[(drawn ?? points.count) - 1]
            let ink = drawn.map { drawn in
                unsaved.append(points[presented..<drawn])
                presented = drawn
                return unsaved.encoded
            }
            sent.inkBytes += ink?.count ?? 0
            var presence = Presence(
                room: Self.room,
                device: replica.replica,
                name: Self.name,
                colour: style.colour.rgba,
                cursor: (cursor.x, cursor.y),
                ink: ink.map { (board: Self.board.rawValue, colour: style.colour.rgba, width: style.width, points: $0) }
            )
            if let key { presence = presence.sealed(with: key) }
            sent.presences.append(SyncCodec.encode(ClientMessage.presence(presence)))
        }
        for frame in frames {
            if frame.checkpoint { save(through: frame.drawn) }
            present(through: frame.drawn)
        }
        save(through: points.count)
        present(through: nil)
        return sent
    }

    /// Takes in what the author sent, as a remote page does: each presence decoded with its ink, each pack
    /// verified, opened and applied.
    func receive(_ sent: Sent, on remote: inout BenchReplica, key: RoomKey?) {
        var presences = sent.presences[...]
        var packs = sent.packs[...]
        // In the order they were sent: a checkpoint's pack, then that frame's presence.
        for frame in frames {
            if frame.checkpoint, let pack = packs.popFirst() { try! remote.receive(pack: pack, key: key) }
            Self.show(presences.popFirst()!, key: key)
        }
        while let pack = packs.popFirst() { try! remote.receive(pack: pack, key: key) }
        Self.show(presences.popFirst()!, key: key)
    }

    /// A presence frame decoded, opened and its ink decoded, as a remote page shows it.
    private static func show(_ frame: [UInt8], key: RoomKey?) {
        let presences: [Presence] =
            switch try! SyncCodec.decodeServer(frame) {
            case .presence(let presence): [presence]
            case .presences(let presences): presences
            default: preconditionFailure("a presence frame")
            }
        for presence in presences {
            let shown = key.map { try! presence.opened(with: $0) } ?? presence
            if let ink = shown.ink { blackHole(try! InkCodec.decode(ink.points)) }
        }
    }
}
