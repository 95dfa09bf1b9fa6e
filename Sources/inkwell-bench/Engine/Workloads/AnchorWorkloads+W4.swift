import InkwellBoard
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W4: a new device's initial sync of the W2 board, three ways. `sync`, as the anchors' libraries do
    /// it: the device sends its (empty) version vector and receives every change as one deflated pack,
    /// made for it, which it decodes, applies and logs. `stored`, as Inkwell does it: a server keeps the
    /// packs as they were pushed (here 512 changes each, a client's outbox default) and forwards those
    /// bytes, so nothing is encoded at sync time. `snapshot`: the board's snapshot, made as a device
    /// stores it (as Loro's is its own format, not compressed again) and restored. `snapshot_deflated`:
    /// the same, deflated as one sent over the network would be. `durable`: decision 3's whole path, the
    /// stored packs taken as one catch-up frame by a new device (``W4DurableDevice``): verified, inflated,
    /// decoded, stored durably in SQLite, and applied.
    func w4() -> [Figure] {
        let strokes = AnchorStroke.generate(seed: 2, count: size(10_000), points: 50, prefix: "a")
        let points = strokes.count * 50
        var random = SplitMix64(seed: 14)
        var source = BenchReplica(random: &random)
        for stroke in strokes { source.commit([stroke.addition]) }
        let reference = source.board.canonicalEncoding()
        let history = source.log.inOrder.map(\.payload)
        let stored = stride(from: 0, to: history.count, by: 512).map { start in
            PackCodec.encode(
                Pack(room: "bench", changes: Array(history[start..<min(start + 512, history.count)])),
                signedBy: source.key
            )
        }
        // Every change, as the sync path's one pack holds them.
        let deflate = deflateSeconds(packing: history)
        var figures: [Figure] = []
        for mode in ["sync", "stored", "durable", "snapshot", "snapshot_deflated"] {
            var encodes: [Double] = []
            var applies: [Double] = []
            var totals: [Double] = []
            var opens: [Double] = []
            var bytes = 0
            for _ in 0..<runs {
                var fresh = BenchReplica(random: &random)
                let device = mode == "durable" ? try! W4DurableDevice() : nil
                let clock = ContinuousClock()
                let start = clock.now
                var payload: [UInt8] = []
                switch mode {
                case "sync":
                    let vector = VectorCodec.encode(fresh.log.frontier)
                    payload = source.pack(for: VectorCodec.decode(vector))
                    bytes = vector.count + payload.count
                case "stored", "durable":
                    bytes = stored.reduce(0) { $0 + $1.count }
                default:
                    payload = source.snapshot(compression: mode == "snapshot" ? .snapshot : .deflate)
                    bytes = payload.count
                }
                let encoded = clock.now
                let board: BoardState
                switch mode {
                case "sync":
                    try! fresh.receive(pack: payload)
                    board = fresh.board
                case "stored":
                    fresh.reserveCapacity(changes: history.count)
                    for pack in stored { try! fresh.receive(pack: pack) }
                    board = fresh.board
                case "durable":
                    board = try! device!.take(stored, room: "bench", board: source.board.board)
                default:
                    board = try! DocumentSnapshot(decoding: payload).restore(as: BoardState.self)
                }
                let applied = clock.now
                precondition(Self.pointCount(board) == points)
                let touched = clock.now
                precondition(board.canonicalEncoding() == reference)
                encodes.append((encoded - start).seconds)
                applies.append((applied - encoded).seconds)
                totals.append((applied - start).seconds)
                opens.append((touched - start).seconds)
            }
            let (encode, apply, total, opened) = (median(encodes), median(applies), median(totals), median(opens))
            figures += [
                Figure(workload: "W4", figure: "\(mode).bytes", value: Double(bytes)),
                Figure(workload: "W4", figure: "\(mode).bytes_per_point", value: Double(bytes) / Double(points)),
                Figure(workload: "W4", figure: "\(mode).encode_ms", value: encode * 1e3),
                Figure(workload: "W4", figure: "\(mode).apply_ms", value: apply * 1e3),
                Figure(workload: "W4", figure: "\(mode).total_ms", value: total * 1e3),
                Figure(workload: "W4", figure: "\(mode).MB_per_s", value: Double(bytes) / total / 1e6),
                Figure(workload: "W4", figure: "\(mode).total_plus_open_all_strokes_ms", value: opened * 1e3),
                Figure(workload: "W4", figure: "\(mode).points_per_s", value: Double(points) / total),
            ]
        }
        figures.append(Figure(workload: "W4", figure: "sync.deflate_ms", value: deflate * 1e3))
        // The sync path's bytes uncompressed beside those sent (deflated), as anchor_run.py gives the libraries'.
        let empty = VersionVector()
        let plain = VectorCodec.encode(empty).count + source.pack(for: empty, compression: .none).count
        let sent = figures.first { $0.figure == "sync.bytes" }!.value
        figures = figures.map { figure in
            switch figure.figure {
            case "sync.bytes": Figure(workload: "W4", figure: "sync.bytes", value: Double(plain))
            case "sync.bytes_per_point":
                Figure(workload: "W4", figure: "sync.bytes_per_point", value: Double(plain) / Double(points))
            default: figure
            }
        }
        figures.append(Figure(workload: "W4", figure: "sync.deflated_bytes_per_point", value: sent / Double(points)))
        return figures
    }
}
