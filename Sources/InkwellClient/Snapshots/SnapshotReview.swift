import InkwellSync
import InkwellWire

/// What a device makes of a whole room snapshot, against what it holds (the trust rule,
/// docs/ARCHITECTURE.md, "Snapshots on the server").
///
/// A snapshot is its author's word, checked as far as this device can:
/// - its parts were verified one by one (signed for the room, sealed with its key, each change named
///   by the cut) and together (``SnapshotAssembly``: the cut's changes exactly, each once, and its
///   author a timeline of it);
/// - every change it holds that this device holds too has the same bytes: no change is altered;
/// - its cut covers `required`, what this device knows came in packs through the snapshot's position:
///   nothing it stands for is left out. For its own timeline, that is every change the server has
///   acknowledged before.
///
/// A device that holds nothing (a new one) can check only the first point: it takes the snapshot on its
/// author's word, as it would take the packs on their authors'. That is why the server drops packs only
/// once every author present has checked the snapshot that stands for them.
enum SnapshotReview {
    enum Verdict {
        /// Consistent with what this device holds; `new` are the changes it did not hold, each with
        /// its bytes as the snapshot carries them.
        case accepted(new: [(change: EncodedChange, bytes: [UInt8])])
        /// Not taken, and why. `missingOwn` are this device's own changes the snapshot leaves out,
        /// though the server acknowledged them: they go back to the outbox to be pushed again.
        case refused(String, missingOwn: [ChangeID])
    }

    /// - Parameters:
    ///   - held: this device's bytes of a change, if it holds it.
    ///   - required: for each replica, the seq through which the snapshot must hold its changes.
    ///   - own: this device's replica in the room, if it has one.
    static func review(
        _ snapshot: RoomSnapshot,
        held: (ChangeID) throws -> [UInt8]?,
        required: VersionVector,
        own: ReplicaID?
    ) throws -> Verdict {
        var missingOwn: [ChangeID] = []
        if let own, required[own] > snapshot.cut.vector[own] {
            missingOwn = (snapshot.cut.vector[own] + 1...required[own]).map { ChangeID(replica: own, seq: $0) }
        }
        for (replica, seq) in required.entries where seq > snapshot.cut.vector[replica] {
            return .refused(
                "it leaves out changes of \(replica.shortDescription) up to \(seq) that came before its position",
                missingOwn: missingOwn
            )
        }
        var new: [(change: EncodedChange, bytes: [UInt8])] = []
        for bytes in snapshot.changes {
            let change: EncodedChange
            do {
                change = try ChangeCodec.decode(bytes)
            } catch {
                return .refused("it holds a change that does not decode: \(error)", missingOwn: [])
            }
            if let mine = try held(change.id) {
                guard mine == bytes else {
                    return .refused("its change \(change.id) differs from the one held here", missingOwn: [])
                }
            } else if change.id.replica == own {
                return .refused("it holds a change of this device that this device never made", missingOwn: [])
            } else {
                new.append((change, bytes))
            }
        }
        return .accepted(new: new)
    }
}
