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
///   acknowledged before;
/// - every change this device holds inside the cut that the snapshot leaves out stopped mattering by
///   this device's own rule (`DocumentTypes.inertChanges(among:through:)`), over everything it holds
///   together with what the snapshot holds. The rule keeps the proof of what it leaves out (settles,
///   the latest clear, the erases and deletions that killed a stroke), so a device that still holds an
///   old change can check it, a rebasing one included.
///
/// A device that holds nothing (a new one) can check only the first point: it takes the snapshot on its
/// author's word, as it would take the packs on their authors'. That is why the server drops packs only
/// once every author present has checked the snapshot that stands for them.
enum SnapshotReview {
    enum Verdict {
        /// Consistent with what this device holds; `new` are the changes it did not hold, each with
        /// its bytes as the snapshot carries them, and `leftOut` the changes it holds inside the cut that
        /// the snapshot does not.
        case accepted(new: [(change: EncodedChange, bytes: [UInt8])], leftOut: [ChangeID])
        /// Not taken, and why. `missingOwn` are this device's own changes the snapshot leaves out,
        /// though the server acknowledged them: they go back to the outbox to be pushed again.
        case refused(String, missingOwn: [ChangeID])
    }

    /// - Parameters:
    ///   - held: this device's bytes of every change it holds of the room.
    ///   - required: for each replica, the seq through which the snapshot must hold its changes.
    ///   - own: this device's replica in the room, if it has one.
    ///   - ownMade: the last seq this device made on `own`: one of them it no longer holds, it left out
    ///     as inert itself, and the snapshot may hold it.
    ///   - types: the rules by which changes stop mattering.
    static func review(
        _ snapshot: RoomSnapshot,
        held: [ChangeID: [UInt8]],
        required: VersionVector,
        own: ReplicaID?,
        ownMade: UInt64 = 0,
        types: DocumentTypes
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
        var holds: [EncodedChange] = []
        holds.reserveCapacity(snapshot.changes.count)
        for bytes in snapshot.changes {
            let change: EncodedChange
            do {
                change = try ChangeCodec.decode(bytes)
            } catch {
                return .refused("it holds a change that does not decode: \(error)", missingOwn: [])
            }
            holds.append(change)
            if let mine = held[change.id] {
                guard mine == bytes else {
                    return .refused("its change \(change.id) differs from the one held here", missingOwn: [])
                }
            } else if change.id.replica == own {
                // Made here and left out as inert since: nothing new, and nothing to compare.
                guard change.id.seq <= ownMade else {
                    return .refused("it holds a change of this device that this device never made", missingOwn: [])
                }
            } else {
                new.append((change, bytes))
            }
        }
        let inSnapshot = Set(holds.map(\.id))
        let leftOut = held.keys.filter { snapshot.cut.vector.contains($0) && !inSnapshot.contains($0) }.sorted()
        guard !leftOut.isEmpty else { return .accepted(new: new, leftOut: leftOut) }
        let stillMatter = stillMattering(
            leftOut,
            held: held,
            holds: holds,
            inSnapshot: inSnapshot,
            cut: snapshot.cut.vector,
            types: types
        )
        if let first = stillMatter.first {
            return .refused(
                "it leaves out \(first), which still matters here",
                missingOwn: stillMatter.filter { $0.replica == own }
            )
        }
        return .accepted(new: new, leftOut: leftOut)
    }

    /// Which of `leftOut` still matter by this device's rule over what it holds and what the snapshot
    /// holds: a change it cannot decode, or of a type or schema it cannot read, always does.
    ///
    /// - Complexity: O(room) to decode what is held and build its documents.
    private static func stillMattering(
        _ leftOut: [ChangeID],
        held: [ChangeID: [UInt8]],
        holds: [EncodedChange],
        inSnapshot: Set<ChangeID>,
        cut: VersionVector,
        types: DocumentTypes
    ) -> [ChangeID] {
        var all = holds
        for (id, bytes) in held where !inSnapshot.contains(id) {
            guard let change = try? ChangeCodec.decode(bytes) else { continue }
            all.append(change)
        }
        let inert = types.inertChanges(among: all, through: cut)
        return leftOut.filter { !inert.contains($0) }
    }
}
