package import InkwellStore
package import InkwellSync
package import InkwellWire

/// Cuts queued changes into packs to push: the same queue always gives the same packs.
///
/// A pack holds one room's changes of one replica, since its author signs it. Timelines come in the
/// order of their oldest queued change, and each one's changes in queue order, cut into a new pack
/// whenever the next change would break a limit. Since acks remove changes from the front of the queue,
/// planning again after a reconnect rebuilds the packs whose acks were lost; signed again by the same
/// key they are the same bytes with the same id (Ed25519 signing is deterministic), and the server
/// stores them once.
package struct OutboxPlanner: Sendable {
    /// How big one pack may be.
    package struct Limits: Hashable, Sendable {
        /// Changes in one pack.
        package var maximumChanges: Int
        /// One encoded pack, envelope and compression included. A single change larger than this still
        /// travels, alone in its pack: changes are never split.
        package var maximumBytes: Int

        package init(maximumChanges: Int = 512, maximumBytes: Int = 512 << 10) {
            self.maximumChanges = maximumChanges
            self.maximumBytes = maximumBytes
        }
    }

    /// A pack to push: the changes of one room and one replica it holds.
    package struct PlannedPack: Hashable, Sendable {
        package let room: String
        package let changes: [StoredChange]

        package init(room: String, changes: [StoredChange]) {
            self.room = room
            self.changes = changes
        }

        /// The replica whose key signs it.
        package var author: ReplicaID { changes[0].id.replica }

        /// The pack as the wire carries it: its schema is the newest of its changes'.
        package var pack: Pack {
            Pack(
                room: room,
                schemaVersion: changes.map(\.schemaVersion).max() ?? WireSchema.current,
                changes: changes.map(\.payload)
            )
        }
    }

    /// The changes one pack may hold together.
    private struct Timeline: Hashable {
        let room: String
        let replica: ReplicaID
    }

    /// What planning produced.
    package struct Plan: Hashable, Sendable {
        package var packs: [PlannedPack] = []
        /// Queued changes of rooms whose names the protocol cannot carry; they stay queued.
        package var unsendable: [StoredChange] = []
    }

    /// What the envelope and deflate may add to the entries' bytes: a few dozen bytes of envelope and,
    /// for incompressible data, deflate's stored blocks (about 5 bytes per 16 KiB, plus header and checksum).
    package static let envelopeReserve = 1_024

    package let limits: Limits

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// An upper bound on what `change` adds to a pack's body: its bytes, its room's and protobuf framing
    /// (three tags and three varint lengths of at most four bytes each, hence 16).
    package static func entryBytes(_ change: StoredChange) -> Int {
        change.payload.count + change.room.utf8.count + 16
    }

    /// Cuts `queued` (oldest first, none of them already in flight) into at most `maximumPacks` packs.
    ///
    /// - Complexity: O(q) for q queued changes.
    package func plan(_ queued: [StoredChange], maximumPacks: Int = .max) -> Plan {
        var plan = Plan()
        guard maximumPacks > 0 else { return plan }
        var timelines: [Timeline] = []
        var byTimeline: [Timeline: [StoredChange]] = [:]
        for change in queued {
            guard SyncProtocol.isValidRoom(change.room) else {
                plan.unsendable.append(change)
                continue
            }
            let timeline = Timeline(room: change.room, replica: change.id.replica)
            if byTimeline[timeline] == nil { timelines.append(timeline) }
            byTimeline[timeline, default: []].append(change)
        }
        let budget = max(limits.maximumBytes - Self.envelopeReserve, 1)
        for timeline in timelines {
            let room = timeline.room
            var current: [StoredChange] = []
            var bytes = 0
            for change in byTimeline[timeline]! {
                let size = Self.entryBytes(change)
                if !current.isEmpty, current.count >= limits.maximumChanges || bytes + size > budget {
                    plan.packs.append(PlannedPack(room: room, changes: current))
                    if plan.packs.count >= maximumPacks { return plan }
                    current = []
                    bytes = 0
                }
                current.append(change)
                bytes += size
            }
            if !current.isEmpty {
                plan.packs.append(PlannedPack(room: room, changes: current))
                if plan.packs.count >= maximumPacks { return plan }
            }
        }
        return plan
    }
}
