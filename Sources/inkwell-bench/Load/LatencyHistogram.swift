/// Latencies in microseconds, counted in log-linear buckets (HDR-style): exact below 128 µs, then 64
/// buckets per power of two, so a percentile is off by at most 1/64 (1.6 %) of its value. Small
/// (about 10 KB), so every connection keeps its own and they merge at the end.
struct LatencyHistogram: Sendable {
    /// Buckets per power of two above the exact range.
    private static let subBuckets = 64
    /// Values below this are counted exactly.
    private static let exactBelow: UInt64 = 128
    /// Values up to 2^(this + 1) µs (134 s) are bucketed; larger ones share one last bucket.
    private static let largestExponent = 26
    private static let bucketCount = Int(exactBelow) + (largestExponent - 6) * subBuckets + 1

    private var counts: [UInt32] = []
    private(set) var count = 0
    private(set) var maximum: UInt64 = 0
    private var sum: UInt64 = 0

    /// Counts one latency.
    ///
    /// - Complexity: O(1).
    mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let microseconds = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000_000
        record(microseconds: microseconds)
    }

    mutating func record(microseconds: UInt64) {
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.bucketCount) }
        counts[Self.bucket(of: microseconds)] += 1
        count += 1
        sum += microseconds
        maximum = max(maximum, microseconds)
    }

    /// Adds the counts of `other`.
    ///
    /// - Complexity: O(buckets).
    mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        if counts.isEmpty {
            counts = other.counts
        } else {
            for index in counts.indices { counts[index] += other.counts[index] }
        }
        count += other.count
        sum += other.sum
        maximum = max(maximum, other.maximum)
    }

    /// The value at `fraction` (0.5 for the median) in milliseconds: the upper edge of its bucket,
    /// never more than the maximum. Nil when nothing was recorded.
    func milliseconds(at fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (bucket, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += Int(bucketCount)
            if seen >= rank { return Double(min(Self.upperEdge(of: bucket), maximum)) / 1_000 }
        }
        return Double(maximum) / 1_000
    }

    var maximumMilliseconds: Double? { count > 0 ? Double(maximum) / 1_000 : nil }

    var meanMilliseconds: Double? { count > 0 ? Double(sum) / Double(count) / 1_000 : nil }

    private static func bucket(of value: UInt64) -> Int {
        guard value >= exactBelow else { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        guard exponent <= largestExponent else { return bucketCount - 1 }
        let sub = Int(value >> UInt64(exponent - 6)) - subBuckets
        return Int(exactBelow) + (exponent - 7) * subBuckets + sub
    }

    private static func upperEdge(of bucket: Int) -> UInt64 {
        guard bucket >= Int(exactBelow) else { return UInt64(bucket) }
        if bucket == bucketCount - 1 { return .max }
        let exponent = (bucket - Int(exactBelow)) / subBuckets + 7
        let sub = (bucket - Int(exactBelow)) % subBuckets
        return (UInt64(subBuckets + sub + 1) << UInt64(exponent - 6)) - 1
    }
}
