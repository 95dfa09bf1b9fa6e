import Crypto
import Foundation
public import InkwellSync
import SwiftProtobuf

/// What a part of a room snapshot claims, in its signed envelope: which snapshot it belongs to, the
/// server log position it stands for, and exactly which changes the whole snapshot holds.
///
/// A relay reads it without the room's key (it is outside the seal), so the server can tell a snapshot
/// from a pack, group its parts and know which positions it stands for; only the key's holders can
/// check the claim against the changes.
public struct SnapshotCover: Hashable, Sendable {
    /// Chosen at random by the author; the parts of one snapshot share it.
    public let id: SnapshotID
    /// Every change of every pack the server stored in the room through this position is inside ``cut``.
    public let position: UInt64
    /// The snapshot holds, for each replica, its changes with seq 1 through the cut's, and no other.
    public let cut: Cut
    /// This part's index (from 0) and the number of parts.
    public let part: UInt32
    public let parts: UInt32

    public init(id: SnapshotID, position: UInt64, cut: Cut, part: UInt32, parts: UInt32) {
        self.id = id
        self.position = position
        self.cut = cut
        self.part = part
        self.parts = parts
    }

    /// The number of changes the whole snapshot holds: the sum of the cut's seqs.
    public var changeCount: UInt64 { cut.vector.entries.values.reduce(0) { $0 &+ $1 } }

    /// A digest of what every part of the snapshot claims alike (its id, position, cut and number of
    /// parts): what a relay keeps to tell a sibling part from an impostor.
    public var claimDigest: [UInt8] {
        let whole = SnapshotCover(id: id, position: position, cut: cut, part: 0, parts: parts)
        return Array(SHA256.hash(data: try! whole.wire.serializedBytes() as [UInt8]))
    }

    /// Whether `other` is another part of the same snapshot: the same id, and the same claim.
    public func isSibling(of other: SnapshotCover) -> Bool {
        id == other.id && position == other.position && cut == other.cut && parts == other.parts
    }
}

/// A snapshot's 16 random bytes.
public struct SnapshotID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// A new random id.
    public static func random() -> SnapshotID {
        var generator = SystemRandomNumberGenerator()
        return SnapshotID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })!
    }

    public var description: String { bytes.prefix(6).map { String(format: "%02x", $0) }.joined() }
}

extension SnapshotCover {
    /// The most parts a snapshot may have: at ``PackCodec/snapshotPartBodyBytes`` each, 4 GiB.
    public static let maximumParts: UInt32 = 1_024
    /// The most timelines one snapshot may name.
    public static let maximumTimelines = 1 << 16

    /// The cover as the envelope carries it, the cut sorted by replica.
    var wire: WireSnapshotCover {
        var wire = WireSnapshotCover()
        wire.id = Data(id.bytes)
        wire.position = position
        wire.cut = cut.wireEntries
        wire.part = part
        wire.parts = parts
        return wire
    }

    /// Reads and checks a cover: a 16-byte id, a position of at least 1, one to ``maximumParts`` parts
    /// with this one among them, and a cut of at most ``maximumTimelines`` distinct replicas with seqs
    /// from 1 to ``WireLimits/maximumSeq``. The cut may stand for many more changes than the parts hold:
    /// the others stopped mattering.
    init(wire: WireSnapshotCover) throws(WireError) {
        guard let id = SnapshotID(bytes: wire.id) else { throw .invalidField("snapshot.id") }
        guard wire.position >= 1 else { throw .invalidField("snapshot.position") }
        guard wire.parts >= 1, wire.parts <= Self.maximumParts, wire.part < wire.parts else {
            throw .invalidField("snapshot.parts")
        }
        guard !wire.cut.isEmpty, wire.cut.count <= Self.maximumTimelines else { throw .invalidField("snapshot.cut") }
        var cut = Cut()
        for entry in wire.cut {
            guard let replica = ReplicaID(bytes: entry.replica), entry.seq >= 1, entry.seq <= WireLimits.maximumSeq,
                cut.vector[replica] == 0
            else { throw .invalidField("snapshot.cut") }
            cut.include(ChangeID(replica: replica, seq: entry.seq), Stamp(rawValue: entry.stamp))
        }
        self.init(id: id, position: wire.position, cut: cut, part: wire.part, parts: wire.parts)
    }
}
