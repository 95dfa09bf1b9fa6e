package import InkwellSync
package import Logging
import Prometheus
import ServiceLifecycle

/// Runs the log's compaction (``PackLog/compact(retention:)``) now and then, for as long as the server
/// runs: each pass drops, room by room, the packs a snapshot checked by every present author stands for.
package final class Compactor: Service, Sendable {
    let log: any PackStore
    let retention: Duration
    let interval: Duration
    let metrics: ServerMetrics
    /// The wait between passes.
    let timekeeper: any Timekeeper
    /// A bug the simulation puts in on purpose; `nil` everywhere else.
    let injectedBug: InjectedServerBug?
    let logger: Logger

    package init(
        log: any PackStore,
        retention: Duration,
        interval: Duration,
        metrics: ServerMetrics,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        injectedBug: InjectedServerBug? = nil,
        logger: Logger
    ) {
        self.injectedBug = injectedBug
        self.log = log
        self.timekeeper = timekeeper
        self.retention = retention
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
    }

    func run() async {
        // A graceful shutdown ends the wait: the server stops without sitting out an interval first.
        await passes { [interval, timekeeper] in
            try await cancelWhenGracefulShutdown { try await timekeeper.sleep(for: interval) }
        }
    }

    /// The same passes without a service group around them (the deterministic simulation, whose scheduler
    /// must run every task): until the task is cancelled.
    package func runUntilCancelled() async {
        await passes { [interval, timekeeper] in try await timekeeper.sleep(for: interval) }
    }

    /// A pass after each `wait`, until a wait throws or the task ends.
    private func passes(after wait: () async throws -> Void) async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await wait()
            } catch {
                return
            }
            await pass()
        }
    }

    /// One pass over the rooms with a snapshot newer than their floor.
    package func pass() async {
        guard log.fault == nil else { return }
        do {
            for done in try await log.compact(retention: retention, injectedBug: injectedBug) {
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
