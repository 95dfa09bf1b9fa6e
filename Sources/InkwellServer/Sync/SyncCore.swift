package import InkwellSync
package import Logging
package import NIOCore

/// The sync side of a server without the HTTP server around it: the endpoint that runs each
/// connection's session, the committer that stores pushes in groups, and the hub that fans packs and
/// presence out to rooms. ``SyncServer`` puts it behind Hummingbird; a harness that owns the network
/// and the scheduling (the deterministic simulation) drives it directly.
package final class SyncCore: Sendable {
    package let id: ReplicaID
    package let log: any PackStore
    let metrics: ServerMetrics
    let hub: RoomHub
    let committer: Committer
    let endpoint: SyncEndpoint

    /// - Parameters:
    ///   - id: the server's replica, as the log keeps it (``PackLog/serverID()``).
    ///   - commitLinger: how long the first push of a commit waits for company.
    ///   - presenceHold: how long presence waits in an idle connection queue for more.
    ///   - openRooms: whether a room name the server has no record of is made an open room on subscribe.
    ///   - injectedBug: a bug the simulation puts in on purpose; `nil` everywhere else.
    ///   - cluster: the link to the other nodes on the same database, when there are any.
    package init(
        id: ReplicaID,
        log: any PackStore,
        limits: ServerLimits,
        commitLinger: Duration,
        presenceHold: Duration = .zero,
        openRooms: Bool,
        metrics: ServerMetrics = ServerMetrics(),
        timekeeper: any Timekeeper = SystemTimekeeper(),
        wallClock: any WallClock = SystemWallClock(),
        injectedBug: InjectedServerBug? = nil,
        cluster: ClusterFeed? = nil,
        logger: Logger
    ) {
        self.id = id
        self.log = log
        self.metrics = metrics
        hub = RoomHub(metrics: metrics, timekeeper: timekeeper, clustered: cluster != nil, injectedBug: injectedBug)
        cluster?.attach(hub)
        committer = Committer(
            log: log,
            hub: hub,
            cluster: cluster,
            metrics: metrics,
            linger: commitLinger,
            maximumBytesWaiting: limits.maximumPushBytesWaiting,
            timekeeper: timekeeper,
            injectedBug: injectedBug,
            logger: logger
        )
        endpoint = SyncEndpoint(
            server: id,
            limits: limits,
            log: log,
            hub: hub,
            committer: committer,
            presenceHold: presenceHold,
            openRooms: openRooms,
            metrics: metrics,
            timekeeper: timekeeper,
            wallClock: wallClock
        )
    }

    /// Commits what connections push, until the task is cancelled or the server shuts down gracefully.
    package func runCommitter() async {
        await committer.run()
    }

    /// Serves one connection until either side closes it: reads and closes through `peer`, writes its
    /// frames to `channel`.
    package func serve(_ peer: any SyncPeer, channel: any Channel, logger: Logger) async throws {
        try await endpoint.serve(peer, channel: channel, logger: logger)
    }
}
