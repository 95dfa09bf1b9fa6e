import InkwellClient
import InkwellSync
import InkwellWire
import Logging
import Synchronization

/// A load run: many sync connections in one process, in rooms, each drawer streaming its stroke as
/// presence and committing it once a stroke is done, with every push timed to every other member's
/// receipt.
///
/// The members connect over ``Configuration/ramp`` and subscribe; once all are live (or the rest have
/// failed), the drawers start, unmeasured for ``Configuration/warmup`` and measured for
/// ``Configuration/duration``. Then they stop, the run waits up to ``Configuration/drain`` for the
/// last receipts, and closes every socket. Receipts still missing then are lost.
struct LoadRun: Sendable {
    struct Configuration: Sendable {
        /// The server's sync URL, or a cluster's nodes': member `i` of each room connects to node `i mod n`.
        var urls: [String]
        /// Rooms where ``drawers`` members draw.
        var rooms: Int
        var members: Int
        /// Drawing members per room; the others only watch.
        var drawers: Int
        /// Rooms of ``members`` connections each where nobody draws, after the drawing rooms: the
        /// connections a server holds for people who have a board open and are not drawing.
        var idleRooms = 0
        var duration: Duration
        var warmup: Duration
        var pointsPerSecond: Double
        var strokesPerSecond: Double
        var presenceInterval: Duration = .milliseconds(200)
        var ramp: Duration = .seconds(2)
        /// Open each room's first member alone, before the crowd: see ``LoadRun/admit(from:)``.
        var roomsFirst = true
        var liveTimeout: Duration = .seconds(60)
        var drain: Duration = .seconds(10)
        /// How long the run waits for its sockets to close before it reports without them.
        var closeTimeout: Duration = .seconds(20)
        var roomPrefix: String
        var seed: UInt64
        /// The server's process, to read its CPU time and memory from `/proc`.
        var serverPID: Int32?

        /// Drawing rooms and idle rooms.
        var allRooms: Int { rooms + idleRooms }
        var connections: Int { allRooms * members }
        var idleConnections: Int { idleRooms * members }

        /// Points added to the stroke between two presence frames.
        var pointsPerFrame: Int {
            max(1, Int((pointsPerSecond * presenceInterval.seconds).rounded()))
        }

        /// Presence frames per stroke: the stroke is pushed with the last of them.
        var framesPerStroke: Int {
            max(1, Int((1 / strokesPerSecond / presenceInterval.seconds).rounded()))
        }

        func room(_ index: Int) -> String { "\(roomPrefix)-\(index)" }

        /// The node `member` connects to: the members of a room take the nodes in turn.
        func url(for member: LoadMember) -> String { urls[(member.index % members) % urls.count] }
    }

    /// CPU and memory at one moment, for the measured window.
    struct Usage: Sendable {
        let instant: ContinuousClock.Instant
        let ownCPUSeconds: Double
        let serverCPUSeconds: Double?
        let machineBusySeconds: Double?

        static func now(server: Int32?) -> Usage {
            Usage(
                instant: .now,
                ownCPUSeconds: ProcessUsage.ownCPUSeconds(),
                serverCPUSeconds: server.flatMap { ProcessUsage.cpuSeconds(of: $0) },
                machineBusySeconds: ProcessUsage.machineBusySeconds()
            )
        }

        /// CPU seconds of every process but this one and the server.
        var otherCPUSeconds: Double? {
            guard let machineBusySeconds, let serverCPUSeconds else { return nil }
            return machineBusySeconds - ownCPUSeconds - serverCPUSeconds
        }
    }

    /// How the phases went, as the report needs it.
    struct Timeline: Sendable {
        var liveAtStart = 0
        var measuredFrom: Usage?
        var measuredTo: Usage?
        /// From the end of drawing until every receipt was in, or the drain timed out.
        var drained: Duration = .zero
        /// The server's resident bytes before the first connection opened and when the measured window
        /// ended, for the memory each connection holds.
        var serverResidentBefore: Int?
        var serverResidentMeasured: Int?
    }

    let configuration: Configuration
    let recorder: LoadRecorder
    let members: [LoadMember]
    /// Member index by device, to find a presence's sender.
    let senders: [ReplicaID: Int]
    let drawingStarts = Once<ContinuousClock.Instant>()
    let closing = Once<Bool>()
    let logger: Logger

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        recorder = LoadRecorder(rooms: configuration.allRooms)
        var random = SplitMix64(seed: configuration.seed)
        members = (0..<configuration.connections).map { index in
            let roomIndex = index / configuration.members
            return LoadMember(
                index: index,
                room: configuration.room(roomIndex),
                roomIndex: roomIndex,
                key: AuthorKey(),
                drawer: roomIndex < configuration.rooms && index % configuration.members < configuration.drawers,
                seed: random.next()
            )
        }
        senders = Dictionary(uniqueKeysWithValues: members.map { ($0.device, $0.index) })
    }

    /// Runs the whole load and reports it.
    func run() async -> LoadReport {
        let started = ContinuousClock.now
        let residentBefore = configuration.serverPID.flatMap { ProcessUsage.memory(of: $0)?.resident }
        // The members run in a task of their own, so a server that stops answering cannot hold the
        // report: `LoadSocket` waits for the server, without a timeout, to finish an upgrade.
        let crowd = Task {
            await withDiscardingTaskGroup { group in
                for member in members {
                    group.addTask { recorder.finished(await serve(member)) }
                }
            }
        }
        var timeline = await conduct(from: started)
        timeline.serverResidentBefore = residentBefore
        let closeDeadline = ContinuousClock.now + configuration.closeTimeout
        while recorder.finished.members < configuration.connections, ContinuousClock.now < closeDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let finished = recorder.finished
        if finished.members == configuration.connections { await crowd.value }
        return LoadReport(
            configuration: configuration,
            opened: recorder.openedMembers.load(ordering: .relaxed),
            unfinished: configuration.connections - finished.members,
            timeline: timeline,
            totals: recorder.totals,
            stats: finished.stats,
            ownPeakResidentBytes: ProcessUsage.ownPeakResidentBytes(),
            serverMemory: configuration.serverPID.flatMap { ProcessUsage.memory(of: $0) }
        )
    }

    /// Moves the run through its phases while the members run.
    private func conduct(from started: ContinuousClock.Instant) async -> Timeline {
        var timeline = Timeline()
        let deadline = started + configuration.ramp + configuration.liveTimeout
        await admit(until: deadline)
        while recorder.liveMembers.load(ordering: .relaxed) + recorder.failedMembers.load(ordering: .relaxed)
            < configuration.connections, ContinuousClock.now < deadline
        {
            try? await Task.sleep(for: .milliseconds(50))
        }
        for member in members where member.standing == .pending { member.admitted.resolve(false) }
        timeline.liveAtStart = recorder.liveMembers.load(ordering: .relaxed)
        recorder.enter(.warmingUp)
        let start = ContinuousClock.now + .milliseconds(100)
        drawingStarts.resolve(start)
        try? await Task.sleep(until: start + configuration.warmup, clock: .continuous)
        recorder.enter(.measuring)
        timeline.measuredFrom = .now(server: configuration.serverPID)
        try? await Task.sleep(until: start + configuration.warmup + configuration.duration, clock: .continuous)
        recorder.enter(.draining)
        let stopped = Usage.now(server: configuration.serverPID)
        timeline.measuredTo = stopped
        timeline.serverResidentMeasured = configuration.serverPID.flatMap { ProcessUsage.memory(of: $0)?.resident }
        while !recorder.isDrained, ContinuousClock.now < stopped.instant + configuration.drain {
            try? await Task.sleep(for: .milliseconds(20))
        }
        timeline.drained = ContinuousClock.now - stopped.instant
        // Presence is not waited for: give stragglers a moment.
        try? await Task.sleep(for: .milliseconds(500))
        recorder.enter(.closing)
        closing.resolve(true)
        return timeline
    }

    /// Lets the members connect, spread over ``Configuration/ramp``.
    ///
    /// With ``Configuration/roomsFirst``, each room's first member connects alone and the next waits
    /// until it is live; the others then join rooms that exist. Without it, everyone joins in one ramp,
    /// creating rooms while catch-ups run: that once deadlocked the server, which read a new room's head
    /// under its hub's lock (BENCHMARKS.md, "Server under load"; `SyncServerTests` now covers it).
    private func admit(until deadline: ContinuousClock.Instant) async {
        var crowd = members
        if configuration.roomsFirst {
            for room in 0..<configuration.allRooms {
                let first = members[room * configuration.members]
                first.admitted.resolve(true)
                while first.standing == .pending, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(2))
                }
            }
            crowd = members.filter { $0.index % configuration.members != 0 }
        }
        let start = ContinuousClock.now
        for (position, member) in crowd.enumerated() {
            let share = Double(position) / Double(max(1, crowd.count))
            try? await Task.sleep(until: start + configuration.ramp * share, clock: .continuous)
            member.admitted.resolve(true)
        }
    }
}
