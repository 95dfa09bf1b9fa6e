package import InkwellStore
package import InkwellWire

/// Cuts queued changes into packs to push: the same queue always gives the same packs, with the same ids.
///
/// Rooms come in the order of their oldest queued change, and each room's changes in queue order, cut into
/// a new pack whenever the next change would break a limit. Since acks remove changes from the front of
/// the queue, planning again after a reconnect rebuilds the packs whose acks were lost, ids and all, and
/// the server stores them once.
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

    /// A pack to push: the room's changes it holds and its id.
    package struct PlannedPack: Hashable, Sendable {
        package let room: String
        package let id: PackID
        package let changes: [StoredChange]

        package init(room: String, changes: [StoredChange]) {
            self.room = room
            self.changes = changes
            self.id = PackID(room: room, changes: changes.map(\.id))
        }

        /// The pack as the wire carries it: its schema is the newest of its changes'.
        package var pack: Pack {
            Pack(
                id: id,
                schemaVersion: changes.map(\.schemaVersion).max() ?? WireSchema.current,
                entries: changes.map { Pack.Entry(room: room, change: $0.payload) }
            )
        }
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
    /// - Complexity: O(q) for q queued changes, plus O(c log c) per pack of c changes for its id.
    package func plan(_ queued: [StoredChange], maximumPacks: Int = .max) -> Plan {
        var plan = Plan()
        guard maximumPacks > 0 else { return plan }
        var rooms: [String] = []
        var byRoom: [String: [StoredChange]] = [:]
        for change in queued {
            guard SyncProtocol.isValidRoom(change.room) else {
                plan.unsendable.append(change)
                continue
            }
            if byRoom[change.room] == nil { rooms.append(change.room) }
            byRoom[change.room, default: []].append(change)
        }
        let budget = max(limits.maximumBytes - Self.envelopeReserve, 1)
        for room in rooms {
            var current: [StoredChange] = []
            var bytes = 0
            for change in byRoom[room]! {
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
