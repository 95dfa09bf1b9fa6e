import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// What became of a room snapshot whose last part has come.
struct SnapshotOutcome: Sendable {
    let room: String
    let snapshot: SnapshotID
    let author: ReplicaID
    /// The position it stands for, the number of changes its cut names, and how many of them it holds.
    let position: UInt64
    let changeCount: UInt64
    let held: UInt64
    /// The changes it stands for (empty for one whose parts could not be put together).
    let cut: Cut
    let verdict: SnapshotReview.Verdict
    /// The positions its parts came at.
    let partPositions: [UInt64]

    var isAccepted: Bool {
        if case .accepted = verdict { true } else { false }
    }
}

extension SnapshotReview.Verdict: @unchecked Sendable {}

extension PackIntake {
    /// Starts tracking what this connection receives of `room`, from what the store holds now: every
    /// other author's contiguous changes, and this device's own changes the server acknowledged.
    func startTracking(_ room: String) throws {
        guard let snapshots, !snapshots.isTracking(room) else { return }
        try snapshots.start(room: room, base: try Self.held(room, in: store))
    }

    /// What the store holds of `room` for tracking: every other author's contiguous changes, this
    /// device's own that the server acknowledged, and the watermark.
    static func held(_ room: String, in store: Store) throws -> (VersionVector, UInt64) {
        var vector = try store.frontier(room: room).vector
        let own = try store.replica(for: room)
        vector[own] = 0
        let acknowledged = try store.acknowledgedSeq(of: own)
        if acknowledged > 0 { vector[own] = acknowledged }
        return (vector, try store.watermark(room: room))
    }

    /// Takes a snapshot part that came at `stored.serverSeq`, in a `packs` frame or (with `rebase`, the
    /// position the frame says the snapshot stands for) a `rebase` one. Returns the snapshot's outcome
    /// once its last part is here; a part that cannot be read or does not fit its siblings is logged and
    /// counts as seen, and its snapshot is never taken.
    func takePart(
        _ stored: StoredPack,
        room: String,
        key: RoomKey?,
        rebase: UInt64?,
        logger: Logger
    ) throws -> SnapshotOutcome? {
        guard let snapshots else { return nil }
        let part: ReceivedSnapshotPart
        let assembly: SnapshotTracker.Pending?
        do {
            part = try PackCodec.decodeSnapshotPart(stored.bytes, room: room, understanding: understanding, key: key)
            if let rebase, part.cover.position != rebase {
                throw WireError.invalidSnapshot(
                    "a rebase to \(rebase) carries a part standing for \(part.cover.position)"
                )
            }
            assembly = try snapshots.add(part, position: stored.serverSeq, bytes: stored.bytes.count)
        } catch {
            logger.warning(
                "snapshot part not taken",
                metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"]
            )
            return nil
        }
        guard let assembly else { return nil }
        let own = try store.replica(for: room)
        // What this device holds of the room, read once: from rows and from the store's own snapshots,
        // whose changes are read by decoding the snapshot, not one by one.
        var held: [ChangeID: [UInt8]] = [:]
        if !(try store.frontier(room: room).vector.entries.isEmpty) {
            for change in try store.changes(room: room, notIn: VersionVector()) { held[change.id] = change.payload }
        }
        let verdict: SnapshotReview.Verdict
        let snapshot: RoomSnapshot
        do {
            snapshot = try assembly.assembly.assembled()
            verdict = try SnapshotReview.review(
                snapshot,
                held: held,
                // A rebase is held to this device's own timeline of what it held before the connection.
                required: snapshots.required(
                    room: room,
                    through: snapshot.position,
                    baseFor: rebase == nil ? nil : own
                ),
                own: own,
                ownMade: try store.lastSeq(of: own),
                types: documentTypes
            )
        } catch let error as WireError {
            logger.error("snapshot refused", metadata: ["snapshot": "\(part.cover.id)", "reason": "\(error)"])
            return SnapshotOutcome(
                room: room,
                snapshot: part.cover.id,
                author: part.author,
                position: part.cover.position,
                changeCount: part.cover.changeCount,
                held: 0,
                cut: Cut(),
                verdict: .refused("\(error)", missingOwn: []),
                partPositions: assembly.positions
            )
        }
        switch verdict {
        case .accepted(let new, _):
            // A rebase stands in for packs this device never received: later snapshots must stand for its
            // cut too.
            var stoodFor = VersionVector()
            if rebase != nil {
                for (replica, seq) in snapshot.cut.vector.entries where replica != own { stoodFor[replica] = seq }
            }
            snapshots.settled(room: room, through: snapshot.position, stoodFor: stoodFor)
            logger.info(
                "snapshot checked",
                metadata: [
                    "snapshot": "\(snapshot.id)", "author": "\(snapshot.author.shortDescription)",
                    "position": "\(snapshot.position)", "changes": "\(snapshot.changes.count)", "new": "\(new.count)",
                ]
            )
        case .refused(let reason, let missingOwn):
            logger.error(
                "snapshot refused: \(reason)",
                metadata: [
                    "snapshot": "\(snapshot.id)", "author": "\(snapshot.author.shortDescription)",
                    "ownLeftOut": "\(missingOwn.count)",
                ]
            )
        }
        return SnapshotOutcome(
            room: room,
            snapshot: snapshot.id,
            author: snapshot.author,
            position: snapshot.position,
            changeCount: snapshot.cut.vector.changeCount,
            held: UInt64(snapshot.changes.count),
            cut: snapshot.cut,
            verdict: verdict,
            partPositions: assembly.positions
        )
    }

    /// Stores what a `rebase` frame brings: parts of the snapshot standing for `position`. Once the last
    /// has come and the snapshot is taken, its changes are stored and ``Result/snapshots`` says so; the
    /// frame's positions count as seen only then.
    func ingestRebase(room: String, parts: [StoredPack], position: UInt64, logger: Logger) throws -> Result {
        var result = Result()
        let key = try store.credentials(room: room)?.key
        try startTracking(room)
        var changes: [StoredChange] = []
        var decoded: [ChangeID: EncodedChange] = [:]
        for stored in parts {
            result.packBytes += UInt64(stored.bytes.count)
            guard let outcome = try takePart(stored, room: room, key: key, rebase: position, logger: logger) else {
                continue
            }
            result.snapshots.append(outcome)
            guard case .accepted(let new, _) = outcome.verdict else { continue }
            for (change, bytes) in new {
                decoded[change.id] = change
                changes.append(
                    StoredChange(change, room: room, encoded: bytes, entities: documentTypes.entities(of: change))
                )
                result.latestStamp = max(result.latestStamp ?? change.stamp, change.stamp)
            }
        }
        // In transactions of bounded size: one for a million changes would grow the write-ahead log to
        // the size of the room before a checkpoint could run. The watermark moves only after the last.
        var inserted: [ChangeID] = []
        for start in stride(from: 0, to: changes.count, by: Self.rebaseBatch) {
            let batch = Array(changes[start..<min(start + Self.rebaseBatch, changes.count)])
            inserted += try append(batch, result: &result, logger: logger)
        }
        // The changes it left out (they stopped mattering) leave no gap: the room's frontier moves over its
        // cut, so later changes are folded into this device's snapshots, and it may stand for the room.
        for outcome in result.snapshots where outcome.isAccepted && outcome.position == position {
            try store.standFor(outcome.cut, room: room, own: try store.replica(for: room))
        }
        result.inserted = inserted.compactMap { id in
            decoded[id].map { ClientChange(room: room, change: $0, origin: .remote) }
        }
        return result
    }

    /// Changes stored per transaction when a snapshot is taken.
    static let rebaseBatch = 20_000
}
