import InkwellSync
import Logging
import Prometheus
import ServiceLifecycle

/// Runs the log's compaction (``PackLog/compact(retention:)``) now and then, for as long as the server
/// runs: each pass drops, room by room, the packs a snapshot checked by every present author stands for.
final class Compactor: Service, Sendable {
    let log: PackLog
    let retention: Duration
    let interval: Duration
    let metrics: ServerMetrics
    /// The wait between passes.
    let timekeeper: any Timekeeper
    let logger: Logger

    init(
        log: PackLog,
        retention: Duration,
        interval: Duration,
        metrics: ServerMetrics,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        logger: Logger
    ) {
        self.log = log
        self.timekeeper = timekeeper
        self.retention = retention
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
    }

    func run() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // A graceful shutdown ends the wait: the server stops without sitting out an interval first.
            do {
                try await cancelWhenGracefulShutdown { [interval, timekeeper] in
                    try await timekeeper.sleep(for: interval)
                }
            } catch {
                return
            }
            await pass()
        }
    }

    /// One pass over the rooms with a snapshot newer than their floor.
    func pass() async {
        guard log.fault == nil else { return }
        do {
            for done in try await log.compact(retention: retention) {
                metrics.packsCompacted.increment(by: Int64(done.packsDropped))
                metrics.bytesCompacted.increment(by: Int64(clamping: done.bytesDropped))
                logger.info(
                    "compacted a room",
                    metadata: [
                        "room": "\(done.room)", "floor": "\(done.floor)", "packs": "\(done.packsDropped)",
                        "bytes": "\(done.bytesDropped)",
                    ]
                )
            }
        } catch {
            logger.warning("compaction pass failed; the packs stay: \(error)")
        }
    }
}
