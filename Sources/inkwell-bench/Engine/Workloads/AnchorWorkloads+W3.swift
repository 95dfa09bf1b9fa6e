import InkwellBoard
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W3: two devices start from the same 1,000-stroke board; each adds 1,000 strokes of 50 points and
    /// deletes 100 strokes of the base (50 of them deleted by both), then they exchange version vectors
    /// and the changes the other lacks, as one deflated pack each way. Bytes uncompressed, and as sent.
    func w3() -> [Figure] {
        let baseCount = size(1_000)
        let addCount = size(1_000)
        let deleteCount = max(2, size(100))
        let base = AnchorStroke.generate(seed: 3, count: baseCount, points: 50, prefix: "b")
        let addA = AnchorStroke.generate(seed: 4, count: addCount, points: 50, prefix: "x")
        let addB = AnchorStroke.generate(seed: 5, count: addCount, points: 50, prefix: "y")
        let deleteA = Array(0..<deleteCount)
        let deleteB = Array(deleteCount / 2..<deleteCount / 2 + deleteCount)
        let expected = baseCount + 2 * addCount - Set(deleteA + deleteB).count
        var random = SplitMix64(seed: 13)
        var origin = BenchReplica(random: &random)
        for stroke in base { origin.commit([stroke.addition]) }
        let snapshot = try! DocumentSnapshot(decoding: origin.snapshot())

        var merges: [Double] = []
        var edits: [Double] = []
        var exchanged = 0
        var uncompressed = 0
        var converged = true
        var deflate = 0.0
        for run in 0..<runs {
            var a = try! BenchReplica(random: &random, restoring: snapshot)
            var b = try! BenchReplica(random: &random, restoring: snapshot)
            let editing = ContinuousClock().measure {
                for stroke in addA { a.commit([stroke.addition]) }
                for index in deleteA { a.commit([.set(origin.stroke(seq: UInt64(index + 1)), .deleted(true))]) }
                for stroke in addB { b.commit([stroke.addition]) }
                for index in deleteB { b.commit([.set(origin.stroke(seq: UInt64(index + 1)), .deleted(true))]) }
            }
            if run == 0 {
                // The two packs the exchange below sends, before it sends them.
                deflate =
                    deflateSeconds(packing: a.log.changes(notIn: b.log.frontier).map(\.payload))
                    + deflateSeconds(packing: b.log.changes(notIn: a.log.frontier).map(\.payload))
                // The same exchange uncompressed, as the libraries' figure is (anchor_run.py deflates theirs).
                uncompressed =
                    2 * VectorCodec.encode(a.log.frontier).count
                    + a.pack(for: b.log.frontier, compression: .none).count
                    + b.pack(for: a.log.frontier, compression: .none).count
            }
            var bytes = 0
            let merging = ContinuousClock().measure {
                let vectorA = VectorCodec.encode(a.log.frontier)
                let vectorB = VectorCodec.encode(b.log.frontier)
                let toB = a.pack(for: VectorCodec.decode(vectorB))
                let toA = b.pack(for: VectorCodec.decode(vectorA))
                try! b.receive(pack: toB)
                try! a.receive(pack: toA)
                bytes = vectorA.count + vectorB.count + toB.count + toA.count
            }
            exchanged = bytes
            merges.append(merging.seconds)
            edits.append(editing.seconds / 2)
            converged =
                converged && a.board.canonicalEncoding() == b.board.canonicalEncoding()
                && a.board.visibleStrokeCount == expected
        }
        return [
            Figure(workload: "W3", figure: "expected_strokes_after", value: Double(expected)),
            Figure(workload: "W3", figure: "merge_ms", value: median(merges) * 1e3),
            Figure(workload: "W3", figure: "merge_deflate_ms", value: deflate * 1e3),
            Figure(workload: "W3", figure: "bytes_exchanged", value: Double(uncompressed)),
            Figure(
                workload: "W3",
                figure: "bytes_exchanged_per_new_point",
                value: Double(uncompressed) / Double(2 * addCount * 50)
            ),
            Figure(workload: "W3", figure: "bytes_exchanged_deflated", value: Double(exchanged)),
            Figure(
                workload: "W3",
                figure: "bytes_exchanged_deflated_per_new_point",
                value: Double(exchanged) / Double(2 * addCount * 50)
            ),
            Figure(workload: "W3", figure: "converged", value: converged ? 1 : 0),
            Figure(workload: "W3", figure: "concurrent_edit_ms_per_replica", value: median(edits) * 1e3),
        ]
    }
}
