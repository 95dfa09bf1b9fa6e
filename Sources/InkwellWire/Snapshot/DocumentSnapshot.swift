import Foundation
public import InkwellSync
import SwiftProtobuf

/// A document's state as the changes it contains, with their cut: what a cold open starts from.
///
/// It holds the changes themselves, not a summary of them, so nothing is lost: undo of a change
/// inside it still works, and the state it restores is exactly the state those changes make. They
/// are held, and stored, by column (``ChangeColumns``), where what repeats from change to change
/// costs almost nothing.
public struct DocumentSnapshot: Sendable {
    /// The snapshot schema this code writes: 2, changes by column (1 held them as a pack body, and
    /// is still read). A snapshot of a newer schema is refused, never taken for an empty one.
    public static let schemaVersion: UInt32 = 2

    public var room: String
    public let document: String
    public let type: DocumentType
    public var cut: Cut
    var columns: ChangeColumns

    /// Encoded changes, each exactly as it was given.
    ///
    /// - Complexity: O(size of the changes): they are made from the columns.
    public var changes: [[UInt8]] { columns.encodedChanges }

    /// The number of changes inside.
    public var changeCount: Int { columns.count }

    /// A snapshot of encoded changes of `document`: those of `type` written in `schemaVersion` are
    /// laid out by column, any other is kept whole.
    public init(
        room: String,
        document: String,
        type: DocumentType,
        schemaVersion: UInt32,
        cut: Cut,
        changes: [[UInt8]]
    ) {
        let columns = ChangeColumns(document: document, type: type, schemaVersion: schemaVersion)
        self.init(room: room, cut: cut, columns: columns)
        self.columns.append(contentsOf: changes)
    }

    init(room: String, cut: Cut, columns: ChangeColumns) {
        self.room = room
        self.document = columns.document
        self.type = columns.type
        self.cut = cut
        self.columns = columns
    }

    /// The snapshot of `changes`, all of one document, its cut theirs.
    public init<Edit: DocumentEdit>(room: String, document: String, changes: [Change<Edit>]) {
        var cut = Cut()
        for change in changes.sorted(by: { $0.id < $1.id }) { cut.include(change.id, change.stamp) }
        self.init(
            room: room,
            document: document,
            type: Edit.documentType,
            schemaVersion: Edit.schemaVersion,
            cut: cut,
            changes: changes.map { ChangeCodec.encode($0) }
        )
    }

    /// The document these changes make, with `tail` (changes after the snapshot) applied on top, in
    /// one batch. Changes of another type, or of a schema newer than the document reads, are left out
    /// here and stay stored, for a version that reads them.
    ///
    /// - Complexity: O(size of the changes).
    public func restore<Document: ReplicatedDocument>(
        as _: Document.Type,
        adding tail: [[UInt8]] = []
    ) throws(WireError) -> Document {
        var changes = try columns.changes(as: Document.Edit.self)
        changes.reserveCapacity(changes.count + tail.count)
        for bytes in tail {
            if let change = try ChangeCodec.decodeIfReadable(bytes, as: Document.Edit.self) { changes.append(change) }
        }
        var document = Document(document: self.document)
        _ = document.apply(contentsOf: changes)
        return document
    }

    /// The snapshot's bytes, compressed as a snapshot stored on the device is unless told otherwise
    /// (see ``PackCodec/Compression/snapshot``; one sent over the network takes
    /// ``PackCodec/Compression/deflate``).
    public func encoded(compression: PackCodec.Compression = .snapshot) -> [UInt8] {
        encodedWithStateSize(compression: compression).bytes
    }

    /// ``encoded(compression:)``, with the size of the changes' columns before compression: what
    /// ``init(decoding:maximumBytes:)`` checks against its limit, as it does the bytes' own size.
    package func encodedWithStateSize(
        compression: PackCodec.Compression = .snapshot
    ) -> (bytes: [UInt8], stateSize: Int) {
        let plain: [UInt8] = try! columns.wire.serializedBytes()
        var wire = WireSnapshot()
        wire.schemaVersion = Self.schemaVersion
        wire.room = room
        wire.document = document
        wire.type = type.writtenName
        wire.cut = cut.wireEntries
        let (state, deflated) = PackCodec.compress(plain, compression)
        wire.compression = deflated ? .deflate : .none
        wire.state = Data(state)
        wire.stateSize = UInt32(plain.count)
        return (try! wire.serializedBytes(), plain.count)
    }

    /// Decodes a snapshot of at most `maximumBytes`, encoded and once its columns are inflated: the
    /// network's limit unless told otherwise. A device's store reads the snapshots it wrote up to its
    /// own limit for stored values, which is higher: a board's history outgrows a pack.
    public init(decoding bytes: [UInt8], maximumBytes: Int = WireLimits.maximumPackBodyBytes) throws(WireError) {
        guard bytes.count <= maximumBytes else { throw .tooLarge("snapshot") }
        let wire: WireSnapshot
        do {
            wire = try WireSnapshot(serializedBytes: bytes)
        } catch {
            throw .malformed("snapshot")
        }
        guard wire.schemaVersion <= Self.schemaVersion else { throw .futureSchema(wire.schemaVersion) }
        var cut = Cut()
        for entry in wire.cut {
            guard let replica = ReplicaID(bytes: entry.replica), entry.seq >= 1, entry.seq <= WireLimits.maximumSeq
            else {
                throw .invalidField("snapshot.cut")
            }
            cut.include(ChangeID(replica: replica, seq: entry.seq), Stamp(rawValue: entry.stamp))
        }
        var envelope = WirePack()
        envelope.compression = wire.compression
        envelope.body = wire.state
        envelope.bodySize = wire.stateSize
        let state = try PackCodec.inflate(Array(envelope.body), envelope, maximumBytes: maximumBytes)
        guard wire.type.utf8.count <= WireLimits.maximumNameBytes else { throw .invalidField("snapshot.type") }
        let type = DocumentType(writtenName: wire.type)
        guard wire.schemaVersion >= 2 else {
            // Schema 1 held whiteboard changes of schema 1 as a pack body.
            let body = try PackCodec.entries(ofBody: state, "snapshot state")
            self.init(
                room: wire.room,
                document: wire.document,
                type: type,
                schemaVersion: 1,
                cut: cut,
                changes: body.map(\.change)
            )
            return
        }
        let columns: WireChangeColumns
        do {
            columns = try WireChangeColumns(serializedBytes: state)
        } catch {
            throw .malformed("snapshot state")
        }
        self.init(
            room: wire.room,
            cut: cut,
            columns: try ChangeColumns(document: wire.document, type: type, decoding: columns)
        )
    }
}

extension DocumentSnapshot {
    /// This snapshot with more changes inside it and its cut moved to `cut`.
    ///
    /// The caller guarantees that every change of the document inside `cut` is either already in the
    /// snapshot or among `changes`: true when `cut` is the room's contiguous frontier.
    public func extended(with changes: [[UInt8]], to cut: Cut) -> DocumentSnapshot {
        var extended = self
        extended.cut = self.cut.merged(with: cut)
        extended.columns.append(contentsOf: changes)
        return extended
    }
}
