import InkwellBoard
import InkwellServer
import InkwellStore
import InkwellSync
import InkwellWire

/// What must hold at the end of every run, and whether it did:
///
/// The log reads as the snapshot its floor names, then the packs after the floor. A change the snapshot
/// stands for may be left out of it as inert; that it was is checked against every change the devices hold.
///
/// - **Nothing acknowledged is lost**: every pack the server acked is in its log where the ack said (or
///   stood for by the floor's snapshot), and every change a device was told is stored is in it.
/// - **Nothing made is lost**: every change a device made is on every device; in a room that reached its
///   quota, every change the log holds is, and each device keeps its own the room refused.
/// - **Every device shows the same drawing**, the one the server's log makes, once the run has healed; in
///   a room that reached its quota, the log's drawing with the device's own refused changes added.
/// - **The quota holds**: the room's packs never take more bytes than its quota.
/// - **No change is applied twice**: each store passes its invariants (SQLite's integrity check, one row
///   per change id, contiguous timelines).
/// - **Authorship holds**: every pack in the log is signed by the author of every change in it; every part
///   of a snapshot by the one device that made it.
public struct SimulationVerdict: Sendable {
    public let seed: UInt64
    public let failures: [String]
    public let traceHash: String
    public let events: Int
    public let counts: SimulationCounts
    /// Packs in the server's log at the end, and acks sent over the run.
    public let packs: Int
    public let acknowledged: Int
    /// Snapshots the log holds at the end, and the position through which it dropped packs (0 for none).
    public let snapshots: Int
    public let floor: UInt64

    public var passed: Bool { failures.isEmpty }

    init(checking world: Simulation, clients: [SimulatedClient], server: SimulatedServer) throws {
        var failures = world.failures
        if !server.isUp { try server.start(in: world) }
        let log = try server.log
        let stored = try log.packs(room: Simulation.room, after: 0, maximumBytes: .max)
        let floor = try log.floor(room: Simulation.room)
        var byPosition: [UInt64: PackID] = [:]
        var logChanges: [ChangeID: [UInt8]] = [:]
        var snapshots: [SnapshotID: [ReceivedSnapshotPart]] = [:]
        for pack in stored {
            let header = try PackCodec.header(of: pack.bytes)
            byPosition[pack.serverSeq] = header.id
            do {
                let decoded = try PackCodec.decode(pack.bytes, room: Simulation.room)
                for bytes in decoded.changes {
                    let change = try ChangeCodec.decode(bytes)
                    guard change.id.replica == decoded.author else {
                        failures.append("pack at \(pack.serverSeq) holds a change of another author")
                        continue
                    }
                    logChanges[change.id] = bytes
                }
            } catch WireError.snapshotPart {
                do {
                    let part = try PackCodec.decodeSnapshotPart(pack.bytes, room: Simulation.room)
                    snapshots[part.cover.id, default: []].append(part)
                } catch {
                    failures.append("snapshot part at \(pack.serverSeq) does not decode: \(error)")
                }
            } catch {
                failures.append("pack at \(pack.serverSeq) does not decode: \(error)")
            }
        }
        // A snapshot holds any author's changes, but is signed, every part, by one device of the room.
        let devices = Set(try clients.map { try $0.store.replica(for: Simulation.room) })
        for (id, parts) in snapshots.sorted(by: { $0.key.description < $1.key.description }) {
            if let stranger = parts.first(where: { !devices.contains($0.author) || $0.author != parts[0].author }) {
                failures.append("snapshot \(id) has a part signed by \(stranger.author), not its one device's")
            }
        }
        // The log reads as its floor's snapshot, then the packs after the floor.
        var floorCut: VersionVector?
        if let floor {
            let parts = snapshots[floor.snapshot] ?? []
            if let cover = parts.first?.cover, parts.count == Int(cover.parts), cover.position == floor.covers,
                floor.position <= floor.covers
            {
                floorCut = cover.cut.vector
                for bytes in parts.flatMap(\.changes) {
                    let change = try ChangeCodec.decode(bytes)
                    logChanges[change.id] = bytes
                }
            } else {
                failures.append(
                    "the log dropped its packs through \(floor.position), but holds \(parts.count) parts of the snapshot that stands for them"
                )
            }
        }
        // A change the floor's snapshot stands for: held in it, or left out by it as inert.
        func isStoodFor(_ id: ChangeID) -> Bool {
            logChanges[id] != nil || (floorCut?.contains(id) ?? false)
        }
        // An acknowledged pack at or below the floor is stood for by its snapshot: its changes are checked
        // below, by the devices that made them.
        for (pack, place) in server.acknowledged.sorted(by: { $0.value.position < $1.value.position })
        where place.position > (floor?.position ?? 0) && byPosition[place.position] != pack {
            failures.append("acknowledged pack \(pack) at \(place.position) is not in the log")
        }
        let storedBytes = stored.reduce(0) { $0 + UInt64($1.bytes.count) }
        if let quota = world.roomQuota, storedBytes > quota {
            failures.append("the room's packs take \(storedBytes) bytes, past its quota of \(quota)")
        }
        // Whether some change never reached the log because the room was full.
        let refused = world.roomQuota != nil && world.counts.roomFullRefusals > 0
        var reference: String?
        let logBoard = try Self.board(of: Array(logChanges.values))
        // Every change held anywhere: what a snapshot left out must not change the drawing.
        var everything = logChanges
        for client in clients {
            let holding = try client.store.changes(room: Simulation.room, notIn: VersionVector())
            let held = Set(holding.map(\.id))
            // What this device's own snapshots left out as inert.
            let pruned = try client.store.prunedThrough(room: Simulation.room)
            for change in holding { everything[change.id] = change.payload }
            for ended in client.runsThatStopped {
                failures.append("client \(client.index)'s sync stopped while its process ran: \(ended)")
            }
            if let code = try client.refusal(in: world), code != ErrorCode.roomFull.rawValue {
                failures.append("client \(client.index) was refused the open room (\(code))")
            }
            for id in try client.acknowledged().sorted(by: { ($0.replica, $0.seq) < ($1.replica, $1.seq) })
            where !isStoodFor(id) {
                failures.append("client \(client.index): change \(id) was acknowledged but is not in the log")
            }
            for other in clients {
                // A change the full room refused is kept by its maker alone.
                for id in other.made
                where !held.contains(id) && !pruned.contains(id) && (other === client || logChanges[id] != nil) {
                    failures.append("client \(client.index) lacks change \(id) of client \(other.index)")
                }
            }
            let ownMade = Set(client.made)
            let kept = holding.filter { !isStoodFor($0.id) }
            for change in kept where !ownMade.contains(change.id) {
                failures.append(
                    "client \(client.index) holds change \(change.id), which is neither its own nor in the log"
                )
            }
            if !kept.isEmpty, !refused {
                failures.append(
                    "client \(client.index) holds \(kept.count) changes the log lacks, in a room that refused none"
                )
            }
            do {
                try client.store.checkInvariants()
            } catch {
                failures.append("client \(client.index)'s store breaks an invariant: \(error)")
            }
            let hash = try client.board().canonicalHash
            if refused {
                let expected = try Self.board(of: Array(logChanges.values) + kept.map(\.payload))
                if hash != expected.canonicalHash {
                    failures.append(
                        "client \(client.index) shows a drawing other than the log's and its own refused changes make"
                    )
                }
                continue
            }
            if reference == nil { reference = hash }
            if hash != reference { failures.append("client \(client.index) shows another drawing") }
        }
        if let reference, reference != logBoard.canonicalHash {
            failures.append("the devices show a drawing other than the server's log makes")
        }
        if !refused, try Self.board(of: Array(everything.values)).canonicalHash != logBoard.canonicalHash {
            failures.append("changes the log's snapshot left out as inert change its drawing")
        }
        self.seed = world.seed
        self.failures = failures
        self.traceHash = world.traceHash
        self.events = world.eventCount
        self.counts = world.counts
        self.packs = stored.count
        self.acknowledged = server.acknowledged.count
        self.snapshots = snapshots.count
        self.floor = floor?.position ?? 0
    }

    private static func board(of changes: [[UInt8]]) throws -> BoardState {
        var board = BoardState(board: BoardID(Simulation.board))
        let decoded = try changes.map { try ChangeCodec.decode($0, as: BoardEdit.self) }
        _ = board.apply(contentsOf: decoded.sorted { ($0.stamp, $0.id) < ($1.stamp, $1.id) })
        return board
    }
}
