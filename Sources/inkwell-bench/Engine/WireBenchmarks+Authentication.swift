import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

extension WireBenchmarks {
    /// What proving authorship costs a change: the signed envelope's bytes beyond the change, and the
    /// time to sign a pack (encode included) and to verify one (decode included), against the same pack's
    /// work without a signature. A one-point change is W1's unit; a pen-up stroke of 50 points and a live
    /// pack of 250 ms of ink (15 points, one change) are what the product pushes.
    func authentication() -> [Figure] {
        var writer = ChangeWriter(seed: 9)
        let cases: [(String, [BoardChange])] = [
            (
                "one_point_change",
                [
                    writer.change([
                        .appendPoints(
                            StrokeID(change: ChangeID(replica: writer.replica, seq: 1)),
                            points: [Point(3, 4)],
                            pressures: nil
                        )
                    ])
                ]
            ),
            ("live_ink_15_points", [writer.change([writer.randomStroke(points: 15, grid: true)])]),
            ("stroke_50_points", [writer.change([writer.randomStroke(points: 50, grid: true)])]),
            (
                "pack_of_100_strokes",
                (0..<100).map { _ in writer.change([writer.randomStroke(points: 50, grid: true)]) }
            ),
        ]
        let iterations = size(2_000)
        var figures: [Figure] = []
        for (label, changes) in cases {
            let encoded = changes.map(ChangeCodec.encode)
            let pack = Pack(room: "room-0123456789abcdef", changes: encoded)
            let bytes = PackCodec.encode(pack, signedBy: writer.key)
            let changeBytes = encoded.map(\.count).reduce(0, +)
            // The same body and room with no author or signature: what the envelope cost before.
            let unsignedEnvelope = bytes.count - writer.key.publicKey.count - 2 - 64 - 2
            let sign = medianSeconds(runs: runs) {
                for _ in 0..<iterations { blackHole(PackCodec.encode(pack, signedBy: writer.key)) }
            }
            let verify = medianSeconds(runs: runs) {
                for _ in 0..<iterations { blackHole(try! PackCodec.decode(bytes, room: pack.room)) }
            }
            let decode = medianSeconds(runs: runs) {
                for _ in 0..<iterations { blackHole(encoded.map { try! ChangeCodec.decode($0, as: BoardEdit.self) }) }
            }
            let perChange = Double(changes.count)
            let micro = 1e6 / Double(iterations) / perChange
            figures += [
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_change_bytes",
                    value: Double(changeBytes) / perChange
                ),
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_pack_bytes_per_change",
                    value: Double(bytes.count) / perChange
                ),
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_signature_bytes_per_change",
                    value: Double(bytes.count - unsignedEnvelope) / perChange
                ),
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_encode_and_sign_us_per_change",
                    value: sign * micro
                ),
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_verify_and_decode_us_per_change",
                    value: verify * micro
                ),
                Figure(
                    workload: "wire_authentication",
                    figure: "\(label)_change_decode_us_per_change",
                    value: decode * micro
                ),
            ]
        }
        return figures
    }
}
