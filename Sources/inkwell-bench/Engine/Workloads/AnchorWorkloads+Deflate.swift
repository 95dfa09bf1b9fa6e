import InkwellWire

extension AnchorWorkloads {
    /// The time deflate alone (libdeflate) takes for one pack of `changes`: its body deflated as packs on
    /// the wire are (``PackCodec/Compression/deflate``), then inflated. Measured apart from the workload,
    /// so that a row can say how much of it is deflate's: a path that sends deflated packs can be no
    /// faster than this, however quick everything else becomes.
    ///
    /// - Returns: the best of `runs`, in seconds.
    func deflateSeconds(packing changes: [[UInt8]], room: String = "bench") -> Double {
        let plain = PackCodec.body(changes.lazy.map { (room: room, change: $0) })
        return medianSeconds(runs: runs, setup: { [UInt8]() }) { inflated in
            let deflated = PackCodec.deflate(plain, .deflate)
            inflated = try! PackCodec.inflate(deflated, size: plain.count)
        }
    }
}
