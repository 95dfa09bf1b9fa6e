public import InkwellSync

/// A room snapshot whose parts have all arrived and hold what they claim: changes inside its cut, each
/// once, and no other. The cut may stand for more than it holds: the changes it leaves out stopped
/// mattering, which only a receiver that holds them can check (`SnapshotReview`).
public struct RoomSnapshot: Sendable {
    public let room: String
    /// The replica whose key signed every part.
    public let author: ReplicaID
    public let id: SnapshotID
    /// The server log position it stands for.
    public let position: UInt64
    public let cut: Cut
    /// The newest schema among its parts.
    public let schemaVersion: UInt32
    /// The changes it holds, each inside ``cut`` and each once, in the order the parts held them.
    public let changes: [[UInt8]]
    /// The ids of its parts, by index.
    public let parts: [PackID]
}

/// Gathers the parts of one room snapshot as they arrive, in any order and with repeats, and checks
/// the whole once the last has come.
///
/// Each part was verified on its own (``PackCodec/decodeSnapshotPart(_:room:understanding:key:)``):
/// signed, and its changes named by the cut. What only the whole shows is checked here: the parts
/// agree on their claim, the snapshot's author is one of the timelines it holds, and together the
/// parts hold changes of the cut each once, each timeline's last (when held) with the stamp the cut
/// states. A snapshot that is cut short, or holds a change twice, is refused.
public struct SnapshotAssembly: Sendable {
    public let room: String
    public let author: ReplicaID
    /// The claim every part must repeat.
    public let cover: SnapshotCover
    private var parts: [UInt32: ReceivedSnapshotPart] = [:]

    public init(_ first: ReceivedSnapshotPart) {
        room = first.room
        author = first.author
        cover = first.cover
        parts[first.cover.part] = first
    }

    /// Whether every part has arrived.
    public var isComplete: Bool { parts.count == Int(cover.parts) }

    /// The parts held so far.
    public var count: Int { parts.count }

    /// Adds a part of this snapshot; one already held is ignored.
    ///
    /// - Returns: whether it was new.
    /// - Throws: ``WireError/invalidSnapshot(_:)`` for a part of the same id that claims something else,
    ///   or is signed by another author.
    @discardableResult
    public mutating func add(_ part: ReceivedSnapshotPart) throws(WireError) -> Bool {
        guard part.author == author, part.room == room, part.cover.isSibling(of: cover) else {
            throw .invalidSnapshot("its parts disagree on what it holds")
        }
        guard parts[part.cover.part] == nil else { return false }
        parts[part.cover.part] = part
        return true
    }

    /// The whole snapshot, checked.
    ///
    /// - Throws: ``WireError/invalidSnapshot(_:)`` when parts are missing, when its author holds no
    ///   timeline in it, or when it holds a change twice or a timeline's last with another stamp.
    /// - Complexity: O(changes).
    public func assembled() throws(WireError) -> RoomSnapshot {
        guard isComplete else { throw .invalidSnapshot("parts are missing") }
        guard cover.cut.vector[author] > 0 else { throw .invalidSnapshot("its author holds no timeline in it") }
        let ordered = (0..<cover.parts).map { parts[$0]! }
        let total = ordered.reduce(0) { $0 + $1.changes.count }
        var seen = Set<ChangeID>(minimumCapacity: total)
        var changes: [[UInt8]] = []
        changes.reserveCapacity(total)
        for part in ordered {
            for change in part.changes {
                let header = try ChangeCodec.header(of: change)
                guard seen.insert(ChangeID(replica: header.replica, seq: header.seq)).inserted else {
                    throw .invalidSnapshot("it holds a change twice")
                }
                if header.seq == cover.cut.vector[header.replica], header.stamp != cover.cut.stamps[header.replica] {
                    throw .invalidSnapshot("a timeline's last change has another stamp than its cut states")
                }
                changes.append(change)
            }
        }
        return RoomSnapshot(
            room: room,
            author: author,
            id: cover.id,
            position: cover.position,
            cut: cover.cut,
            schemaVersion: ordered.map(\.schemaVersion).max() ?? WireSchema.current,
            changes: changes,
            parts: ordered.map(\.id)
        )
    }
}
