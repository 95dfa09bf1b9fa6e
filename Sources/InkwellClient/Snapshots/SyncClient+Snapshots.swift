import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// Room snapshots: checking those that arrive, taking one in place of packs the server no longer keeps,
/// and sending one when this device holds a room's whole history.
extension SyncClient {
    /// What this client knows of a room's newest snapshot: the position it stands for, the changes its
    /// cut stands for, and those it holds (the rest stopped mattering).
    struct KnownSnapshot: Hashable, Sendable {
        var position: UInt64
        var changes: UInt64
        var held: UInt64
    }

    /// Handles the snapshots whose last part came in a frame: an accepted one is checked, signed, to the
    /// server; a refused one is counted, and this device's own changes it leaves out are queued again,
    /// so the server holds them whatever the snapshot says.
    func took(_ outcomes: [SnapshotOutcome]) {
        for outcome in outcomes {
            switch outcome.verdict {
            case .accepted:
                statistics.snapshotsChecked += 1
                hear(
                    KnownSnapshot(position: outcome.position, changes: outcome.changeCount, held: outcome.held),
                    in: outcome.room
                )
                sendCheck(of: outcome)
            case .refused(_, let missingOwn):
                statistics.snapshotsRefused += 1
                guard !missingOwn.isEmpty else { continue }
                do {
                    try store.enqueue(missingOwn)
                    logger.warning(
                        "this device's changes a snapshot left out are queued to be pushed again",
                        metadata: ["room": "\(outcome.room)", "changes": "\(missingOwn.count)"]
                    )
                    refreshOutboxBytes()
                    perform(session.outboxChanged())
                } catch {
                    logger.error("could not queue again the changes a snapshot left out: \(error)")
                }
            }
        }
    }

    /// The newest snapshot this client heard of in `room`, from memory or, after a restart, from the store.
    func known(_ room: String) -> KnownSnapshot? {
        if let known = knownSnapshots[room] { return known }
        guard let heard = try? store.heardSnapshot(room: room) else { return nil }
        let known = KnownSnapshot(position: heard.position, changes: heard.changes, held: heard.held)
        knownSnapshots[room] = known
        return known
    }

    /// Notes a snapshot heard of (sent, or checked), in memory and in the store, unless a newer one was.
    private func hear(_ snapshot: KnownSnapshot, in room: String) {
        guard (known(room)?.position ?? 0) < snapshot.position else { return }
        knownSnapshots[room] = snapshot
        do {
            try store.hearSnapshot(
                room: room,
                position: snapshot.position,
                changes: snapshot.changes,
                held: snapshot.held
            )
        } catch {
            logger.warning("could not keep the snapshot heard of: \(error)", metadata: ["room": "\(room)"])
        }
    }

    /// Tells the server this device checked and holds a snapshot, signed by its key in the room. Not
    /// while it keeps aside anything of the room it might stand for: what it cannot read, it cannot
    /// check; nor while it holds changes past a gap, which the snapshot may stand for without holding.
    private func sendCheck(of outcome: SnapshotOutcome) {
        do {
            guard try !Self.holdsAsideAnything(of: outcome.room, in: store),
                try !Self.holdsPastAGap(outcome.room, frontier: store.frontier(room: outcome.room).vector, in: store)
            else {
                logger.notice(
                    "snapshot not checked: packs of the room are kept aside here, or changes lie past a gap",
                    metadata: ["room": "\(outcome.room)"]
                )
                return
            }
            let replica = try store.replica(for: outcome.room)
            guard let key = try store.authorKey(of: replica) else { return }
            perform([
                .send(.snapshotChecked(SnapshotCheck(room: outcome.room, snapshot: outcome.snapshot, signedBy: key)))
            ])
        } catch {
            logger.error("could not check a snapshot: \(error)")
        }
    }

    /// Whether the store holds a change of `room` past a gap in its author's timeline.
    private static func holdsPastAGap(_ room: String, frontier: VersionVector, in store: Store) throws -> Bool {
        try !store.changes(room: room, notIn: frontier).isEmpty
    }

    /// Whether the store keeps aside anything of `room` that a later version could read: packs of a newer
    /// schema, sealed packs that came before the key, changes stamped ahead. Not forged packs.
    private static func holdsAsideAnything(of room: String, in store: Store) throws -> Bool {
        try store.storedAside(upTo: .max).contains { $0.room == room && $0.schemaVersion != PackIntake.neverReopened }
    }

    /// A `rebase` frame was stored: once its snapshot is taken, the room's watermark moves to the position
    /// it stands for.
    func rebased(_ result: PackIntake.Result, room: String, position: UInt64, head: UInt64, bytes: Int, id: Int) {
        for change in result.inserted { changeFeed.send(change) }
        if !result.inserted.isEmpty { batchFeed.send(result.inserted) }
        if let stamp = result.latestStamp { _ = author.witness(stamp) }
        statistics.changesStored += result.inserted.count
        took(result.snapshots)
        guard connection?.id == id else { return }
        statistics.framesReceived += 1
        statistics.bytesReceived += bytes
        statistics.packBytesReceived += Int(result.packBytes)
        for outcome in result.snapshots where outcome.position == position {
            guard outcome.isAccepted else {
                // Packs the server no longer keeps cannot come any other way: the room is left, keeping all
                // this device holds, until it is joined again (the app's next start), when the server may
                // hold a snapshot this device can take.
                logger.error("the room's early history came as a snapshot this device refuses; not following it")
                perform(session.leave(room))
                return
            }
            statistics.rebases += 1
            perform(session.rebased(room: room, position: position, parts: outcome.partPositions, head: head))
        }
    }

    // MARK: Sending

    /// Sends a snapshot of each room this device holds whole and may edit, once enough has changed since
    /// the newest snapshot it knows, after a random part of ``Configuration/snapshotDelay``.
    func considerSnapshots() {
        guard let threshold = configuration.snapshotThreshold, let connection else { return }
        for (room, state) in session.rooms where state.caughtUp && state.cursor.isAtHead && state.takesPushes {
            guard !snapshotsPlanned.contains(room) else {
                snapshotsToReconsider.insert(room)
                continue
            }
            do {
                let held = try store.frontier(room: room).vector.entries.values.reduce(0, +)
                guard held >= Self.changesForNextSnapshot(after: known(room), threshold: threshold) else {
                    continue
                }
            } catch {
                logger.error("could not read the room's frontier: \(error)")
                continue
            }
            snapshotsPlanned.insert(room)
            let delay = configuration.snapshotDelay * Double.random(in: 0...1, using: &random)
            let connectionID = connection.id
            let timekeeper = configuration.timekeeper
            Task(executorPreference: configuration.taskExecutor) { [weak self] in
                try? await timekeeper.sleep(for: delay)
                await self?.sendSnapshot(of: room, connection: connectionID)
            }
        }
    }

    /// The changes a room must hold before its next snapshot: `threshold` more than the newest one stands
    /// for, and half as many again as it holds, as the server asks (its bytes, not its changes, but they
    /// grow together). A room whose changes keep mattering gets snapshots that grow geometrically, so all
    /// of them together cost at most about three times its last to send; one whose history stops mattering
    /// gets one every `threshold` changes, each the size of what still matters.
    static func changesForNextSnapshot(after known: KnownSnapshot?, threshold: Int) -> UInt64 {
        (known?.changes ?? 0) + max(UInt64(threshold), (known?.held ?? 0) / 2)
    }

    /// Makes and sends the room's snapshot, if this device still holds its whole history: caught up,
    /// with nothing kept aside and no change past a gap, and no newer snapshot heard of meanwhile. The
    /// snapshot is read and encoded off the actor (seconds for a million changes), and sent only if the
    /// connection it was made for is still the one open.
    private func sendSnapshot(of room: String, connection id: Int) async {
        // Planned until sent or given up: frames that arrive while it is made plan no second one, but are
        // considered once it is done. A snapshot planned before this device's last push was acknowledged
        // stands for a cut without it; if it then holds no timeline of its author, the ack's frame makes
        // the next one.
        defer {
            snapshotsPlanned.remove(room)
            if snapshotsToReconsider.remove(room) != nil { considerSnapshots() }
        }
        guard let connection, connection.id == id, let state = session.rooms[room], state.caughtUp,
            state.cursor.isAtHead, state.takesPushes, let threshold = configuration.snapshotThreshold
        else { return }
        let position = state.cursor.watermark
        guard position >= 1, (known(room)?.position ?? 0) < position else { return }
        let needed = Self.changesForNextSnapshot(after: known(room), threshold: threshold)
        // The cut is what came through the position, as a receiver reckons it: every change a receiver
        // caught up to the position holds, so it can check what the snapshot leaves out.
        do {
            try connection.snapshots.start(room: room, base: PackIntake.held(room, in: store))
        } catch {
            logger.error("could not read what the room holds: \(error)", metadata: ["room": "\(room)"])
            return
        }
        let within = connection.snapshots.required(room: room, through: position)
        let (store, key, logger, types) = (self.store, state.credentials?.key, self.logger, configuration.documentTypes)
        let made = await Task.detached(executorPreference: configuration.taskExecutor, priority: .utility) {
            do {
                return try Self.makeSnapshot(
                    of: room,
                    in: store,
                    position: position,
                    within: within,
                    needed: needed,
                    types: types,
                    sealedWith: key,
                    logger: logger
                )
            } catch {
                logger.error("could not make a snapshot: \(error)", metadata: ["room": "\(room)"])
                return nil
            }
        }.value
        guard let made, self.connection?.id == id, session.rooms[room]?.takesPushes == true else { return }
        hear(KnownSnapshot(position: position, changes: made.changes, held: made.held), in: room)
        statistics.snapshotsUploaded += 1
        logger.info(
            "sending a snapshot",
            metadata: [
                "room": "\(room)", "position": "\(position)", "changes": "\(made.changes)",
                "held": "\(made.held)", "parts": "\(made.parts.count)",
            ]
        )
        perform(made.parts.map { .send(.push(room: room, pack: $0)) })
    }

    /// The room's snapshot standing for `position`, in parts: its cut is `within`, what came through the
    /// position; it holds the changes inside the cut that still matter by `types`' rules. `nil` unless the
    /// store accounts for every change of the cut, at least `needed`, and keeps nothing of the room aside.
    ///
    /// A change of the cut is accounted for when the room's frontier covers it: held, or left out as inert
    /// by this device's own snapshots, or by a room snapshot it took (whose author's word it took, as the
    /// server did). Each timeline's stamp in the cut is its last change's when held, else the latest held
    /// before it: receivers check a stamp only against a change the snapshot holds.
    private static func makeSnapshot(
        of room: String,
        in store: Store,
        position: UInt64,
        within: VersionVector,
        needed: UInt64,
        types: DocumentTypes,
        sealedWith key: RoomKey?,
        logger: Logger
    ) throws -> (parts: [[UInt8]], changes: UInt64, held: UInt64)? {
        func notMade(_ reason: String) -> (parts: [[UInt8]], changes: UInt64, held: UInt64)? {
            logger.info("no snapshot made: \(reason)", metadata: ["room": "\(room)", "position": "\(position)"])
            return nil
        }
        guard try !holdsAsideAnything(of: room, in: store) else { return notMade("packs of the room are kept aside") }
        let total = within.changeCount
        guard total >= needed else { return notMade("its cut stands for \(total) changes, fewer than \(needed)") }
        // A change of the cut past a gap here would be stood for without being accounted for: the snapshot
        // waits for a device that has them all.
        let frontier = try store.frontier(room: room)
        guard frontier.vector.covers(within) else { return notMade("changes of its cut lie past a gap here") }
        // A change held past a gap came at a position this device cannot place: had it come through the
        // position, the snapshot would stand for it without holding it, and the log could drop its pack (a
        // room that refused an author's change for its quota and took the next one leaves such a gap).
        guard try !holdsPastAGap(room, frontier: frontier.vector, in: store) else {
            return notMade("changes of the room lie past a gap here")
        }
        // This device's store left out changes inert within its own cut; one inert only given changes that
        // came after the position would be left out here wrongly. The next position will stand for them.
        guard within.covers(try store.prunedThrough(room: room)) else {
            return notMade("this device left out changes past what its cut stands for")
        }
        let held = try store.changes(room: room, notIn: VersionVector())
        let inside = held.filter { within.contains($0.id) }
        var latest: [ReplicaID: (seq: UInt64, stamp: Stamp)] = [:]
        for change in inside where change.id.seq > latest[change.id.replica]?.seq ?? 0 {
            latest[change.id.replica] = (change.id.seq, change.stamp)
        }
        var cut = Cut()
        for (replica, seq) in within.entries {
            let stamp = latest[replica]?.stamp ?? (frontier.vector[replica] == seq ? frontier.stamps[replica] : nil)
            cut.include(ChangeID(replica: replica, seq: seq), stamp ?? .zero)
        }
        let replica = try store.replica(for: room)
        guard let author = try store.authorKey(of: replica), cut.vector[replica] > 0 else {
            return notMade("this device has no acknowledged change in the room to sign as")
        }
        let encoded = held.compactMap { try? ChangeCodec.decode($0.payload) }
        let inert = types.inertChanges(among: encoded, through: cut.vector)
        let kept = inside.filter { !inert.contains($0.id) }
        let parts = PackCodec.encodeSnapshot(
            room: room,
            position: position,
            cut: cut,
            changes: kept.map(\.payload),
            schemaVersion: kept.map(\.schemaVersion).max() ?? WireSchema.current,
            signedBy: author,
            sealedWith: key
        )
        return (parts, total, UInt64(kept.count))
    }
}
