import InkwellServer
import Prometheus
import Testing

@Suite struct ServerMetricsTests {
    static let unlabelled = [
        "inkwell_connections", "inkwell_connections_total", "inkwell_frames_received_total",
        "inkwell_frames_sent_total", "inkwell_bytes_received_total", "inkwell_bytes_sent_total",
        "inkwell_packs_stored_total", "inkwell_packs_duplicate_total", "inkwell_commit_batches_total",
        "inkwell_catch_ups_total", "inkwell_slow_subscriber_fallbacks_total", "inkwell_presence_relayed_total",
        "inkwell_presence_dropped_total", "inkwell_blob_bytes_stored_total", "inkwell_storage_failed",
    ]

    /// The exposition's sample lines, without comments.
    static func samples(_ metrics: ServerMetrics) -> Set<String> {
        Set(metrics.exposition().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
    }

    @Test func everyUnlabelledMetricIsExposedFromTheStart() {
        let metrics = ServerMetrics()
        let exposition = metrics.exposition()
        for name in Self.unlabelled {
            #expect(exposition.contains("# TYPE \(name) \(name.hasSuffix("_total") ? "counter" : "gauge")\n"))
            let zero = name.hasSuffix("_total") ? "0" : "0.0"
            #expect(Self.samples(metrics).contains("\(name) \(zero)"), "\(name)")
        }
        for name in ["inkwell_commit_seconds", "inkwell_fanout_seconds", "inkwell_commit_batch_packs"] {
            #expect(exposition.contains("# TYPE \(name) histogram\n"))
        }
    }

    @Test func countsShowInTheExposition() {
        let metrics = ServerMetrics()
        metrics.packsStored.increment(by: Int64(3))
        metrics.connections.increment()
        metrics.connections.increment()
        metrics.connections.decrement()
        metrics.protocolError(reason: "malformedFrame")
        metrics.protocolError(reason: "malformedFrame")
        metrics.protocolError(reason: "tooBig")
        metrics.httpRequest(method: "GET", status: 200)
        metrics.httpRequest(method: "BREW", status: 404)
        let samples = Self.samples(metrics)
        #expect(samples.contains("inkwell_packs_stored_total 3"))
        #expect(samples.contains("inkwell_connections 1.0"))
        #expect(samples.contains(#"inkwell_protocol_errors_total{reason="malformedFrame"} 2"#))
        #expect(samples.contains(#"inkwell_protocol_errors_total{reason="tooBig"} 1"#))
        #expect(samples.contains(#"inkwell_http_requests_total{method="GET",status="200"} 1"#))
        #expect(samples.contains(#"inkwell_http_requests_total{method="OTHER",status="404"} 1"#))
    }

    @Test func storageErrorsAreCountedByKindAndAFaultRaisesTheGauge() {
        let metrics = ServerMetrics()
        for kind in StorageFault.Kind.allCases {
            #expect(Self.samples(metrics).contains(#"inkwell_storage_errors_total{kind="\#(kind.rawValue)"} 0"#))
        }
        metrics.storageError(.diskFull)
        metrics.storageError(.diskFull)
        metrics.storageStopped()
        let samples = Self.samples(metrics)
        #expect(samples.contains(#"inkwell_storage_errors_total{kind="disk_full"} 2"#))
        #expect(samples.contains(#"inkwell_storage_errors_total{kind="io"} 0"#))
        #expect(samples.contains("inkwell_storage_failed 1.0"))
    }

    @Test func histogramsUseTheirBuckets() {
        let metrics = ServerMetrics()
        metrics.commitSeconds.record(.microseconds(700))
        metrics.fanoutSeconds.record(.seconds(2))
        metrics.commitBatchPacks.record(3.0)
        let samples = Self.samples(metrics)
        #expect(samples.contains(#"inkwell_commit_seconds_bucket{le="0.0005"} 0"#))
        #expect(samples.contains(#"inkwell_commit_seconds_bucket{le="0.001"} 1"#))
        #expect(samples.contains(#"inkwell_commit_seconds_bucket{le="1.0"} 1"#))
        #expect(samples.contains(#"inkwell_fanout_seconds_bucket{le="1.0"} 0"#))
        #expect(samples.contains(#"inkwell_fanout_seconds_bucket{le="+Inf"} 1"#))
        #expect(samples.contains(#"inkwell_commit_batch_packs_bucket{le="2.0"} 0"#))
        #expect(samples.contains(#"inkwell_commit_batch_packs_bucket{le="4.0"} 1"#))
        #expect(samples.contains(#"inkwell_commit_batch_packs_bucket{le="1024.0"} 1"#))
        #expect(ServerMetrics.batchBuckets == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
        #expect(ServerMetrics.latencyBuckets.first == .microseconds(500))
        #expect(ServerMetrics.latencyBuckets.last == .seconds(1))
    }

    @Test func twoServersKeepSeparateCounts() {
        let first = ServerMetrics()
        let second = ServerMetrics()
        first.framesSent.increment(by: Int64(5))
        #expect(Self.samples(first).contains("inkwell_frames_sent_total 5"))
        #expect(Self.samples(second).contains("inkwell_frames_sent_total 0"))
    }
}
