public import Prometheus

/// The server's Prometheus metrics, in a registry of their own so that several servers can share a process
/// (tests do). Nothing here touches the global `MetricsSystem`.
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    /// Open WebSocket connections.
    public let connections: Gauge
    public let connectionsTotal: Counter
    public let framesReceived: Counter
    public let framesSent: Counter
    public let bytesReceived: Counter
    public let bytesSent: Counter
    /// Packs appended to the log.
    public let packsStored: Counter
    /// Pushes of a pack the log already held.
    public let packsDuplicate: Counter
    public let commitBatches: Counter
    public let catchUps: Counter
    /// Subscribers that fell too far behind to be sent live packs and were switched to catching up.
    public let slowSubscriberFallbacks: Counter
    public let presenceRelayed: Counter
    public let presenceDropped: Counter
    public let blobBytesStored: Counter
    /// Packs, and their bytes, dropped by compaction because a checked snapshot stands for them.
    public let packsCompacted: Counter
    public let bytesCompacted: Counter
    /// Time to commit one batch of packs.
    public let commitSeconds: DurationHistogram
    /// Time to hand one committed pack to every subscriber of its room.
    public let fanoutSeconds: DurationHistogram
    /// Packs per committed batch.
    public let commitBatchPacks: ValueHistogram
    /// Time from a push's arrival to its ack being queued: what the server itself adds to a push's
    /// latency (reading, validation, waiting for and making the commit, fan-out), without the network
    /// or the writer.
    public let pushToAckSeconds: DurationHistogram
    /// 1 once a storage fault has stopped the pack log's commits (until the server restarts), else 0.
    public let storageFailed: Gauge
    /// Storage errors by ``StorageFault/Kind``, made at the start so each shows 0 until it happens.
    private let storageErrors: [StorageFault.Kind: Counter]
    /// Notifications of this node's commits sent to the other nodes on the same database.
    public let clusterNotificationsSent: Counter
    /// Notifications of other nodes' commits heard.
    public let clusterNotificationsReceived: Counter

    /// Histogram buckets for latencies, 0.5 ms to 1 s.
    public static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1),
    ]
    /// Histogram buckets for batch sizes: 1, 2, 4, … 1024.
    public static let batchBuckets: [Double] = (0...10).map { Double(1 << $0) }

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        connections = registry.makeGauge(descriptor: Self.name("connections", "Open WebSocket connections."))
        func counter(_ name: String, _ help: String) -> Counter {
            registry.makeCounter(descriptor: Self.name(name, unit: "total", help))
        }
        connectionsTotal = counter("connections", "WebSocket connections accepted.")
        framesReceived = counter("frames_received", "WebSocket frames received.")
        framesSent = counter("frames_sent", "WebSocket frames sent.")
        bytesReceived = counter("bytes_received", "WebSocket payload bytes received.")
        bytesSent = counter("bytes_sent", "WebSocket payload bytes sent.")
        packsStored = counter("packs_stored", "Packs appended to the log.")
        packsDuplicate = counter("packs_duplicate", "Pushed packs the log already held.")
        commitBatches = counter("commit_batches", "Batches of packs committed.")
        catchUps = counter("catch_ups", "Subscriptions served from the log.")
        slowSubscriberFallbacks = counter(
            "slow_subscriber_fallbacks",
            "Subscribers switched from live packs to catching up because they fell behind."
        )
        presenceRelayed = counter("presence_relayed", "Presence messages relayed.")
        presenceDropped = counter("presence_dropped", "Presence messages dropped.")
        blobBytesStored = counter("blob_bytes_stored", "Bytes of new blobs stored.")
        packsCompacted = counter("packs_compacted", "Packs dropped because a checked snapshot stands for them.")
        bytesCompacted = counter("bytes_compacted", "Bytes of packs dropped by compaction.")
        commitSeconds = registry.makeDurationHistogram(
            descriptor: Self.name("commit", unit: "seconds", "Time to commit one batch of packs."),
            buckets: Self.latencyBuckets
        )
        fanoutSeconds = registry.makeDurationHistogram(
            descriptor: Self.name("fanout", unit: "seconds", "Time to hand one committed pack to every subscriber."),
            buckets: Self.latencyBuckets
        )
        pushToAckSeconds = registry.makeDurationHistogram(
            descriptor: Self.name(
                "push_to_ack",
                unit: "seconds",
                "Time from a push's arrival to its acknowledgement being queued."
            ),
            buckets: Self.latencyBuckets
        )
        commitBatchPacks = registry.makeValueHistogram(
            descriptor: Self.name("commit_batch", unit: "packs", "Packs per committed batch."),
            buckets: Self.batchBuckets
        )
        storageFailed = registry.makeGauge(
            descriptor: Self.name("storage_failed", "1 once a storage fault has stopped commits until restart.")
        )
        var storageErrors: [StorageFault.Kind: Counter] = [:]
        for kind in StorageFault.Kind.allCases {
            storageErrors[kind] = registry.makeCounter(
                descriptor: Self.name("storage_errors", unit: "total", "Pack log errors, by kind."),
                labels: [("kind", kind.rawValue)]
            )
        }
        self.storageErrors = storageErrors
        clusterNotificationsSent = counter(
            "cluster_notifications_sent",
            "Notifications of commits sent to other nodes."
        )
        clusterNotificationsReceived = counter(
            "cluster_notifications_received",
            "Notifications of other nodes' commits heard."
        )
    }

    /// Labels this server's metrics as one node's: `inkwell_node_info{node="…",store="…"} 1`, which a
    /// Prometheus query joins with any of them to tell nodes apart.
    public func identify(node: String, store: String) {
        registry.makeGauge(
            descriptor: Self.name("node_info", "This node's id and the store it runs on."),
            labels: [("node", node), ("store", store)]
        ).set(1.0)
    }

    /// Counts an error of the pack log's storage.
    public func storageError(_ kind: StorageFault.Kind) {
        storageErrors[kind]?.increment()
    }

    /// A storage fault stopped the pack log's commits.
    public func storageStopped() {
        storageFailed.set(1.0)
    }

    /// `inkwell_<name>_<unit>`.
    private static func name(_ name: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "inkwell", metricName: name, unitName: unit, helpText: help)
    }

    /// Counts a protocol error. `reason` must come from a small fixed set (such as an error code's name):
    /// each distinct value is a time series of its own.
    public func protocolError(reason: String) {
        registry.makeCounter(
            descriptor: Self.name("protocol_errors", unit: "total", "Protocol errors, by reason."),
            labels: [("reason", reason)]
        )
        .increment()
    }

    /// Counts an answered HTTP request. Methods outside the standard set are counted as `OTHER`.
    public func httpRequest(method: String, status: Int) {
        let knownMethods: Set = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", "HTTP requests answered, by method and status."),
            labels: [("method", knownMethods.contains(method) ? method : "OTHER"), ("status", String(status))]
        )
        .increment()
    }

    /// All metrics in the Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        registry.emitToString()
    }
}
