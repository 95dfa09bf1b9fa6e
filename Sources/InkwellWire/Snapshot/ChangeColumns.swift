import InkwellSync

/// A snapshot's changes held by column, as `ChangeColumns` in `Protos/inkwell/v1/pack.proto` stores them.
///
/// Each change's replica, document, type, schema, stamp and framing cost about 40 bytes, as much as the
/// operation of a stroke drawn one point per change; by column they cost a byte or two. Held this
/// way in memory too: decoding a snapshot fills a few arrays instead of making a buffer per change,
/// and restoring it reads each change's operations where they lie.
///
/// A change is laid out by column only when its columns re-encode to its exact bytes; any other is
/// kept whole, at its place in the order. So ``encodedChanges`` gives back exactly what went in.
struct ChangeColumns: Sendable {
    /// The document, type and schema of every change laid out by column.
    let document: String
    let type: DocumentType
    let schemaVersion: UInt32
    let documentBytes: Int
    /// The type as a change writes it: empty for ``DocumentType/unnamed``.
    let typeName: String

    // Set only by `append(_:)` and by decoding (`ChangeColumns+Wire.swift`), which check them.
    /// Each replica once, in the order of its first change.
    var replicas: [ReplicaID] = []
    /// Where each replica is in ``replicas``; filled when a change is appended.
    private var replicaNumbers: [ReplicaID: UInt32] = [:]
    // Per change laid out by column, in order.
    var replicaOf: [UInt32] = []
    var seqs: [UInt64] = []
    var stamps: [UInt64] = []
    var operationCounts: [UInt32] = []
    /// Per operation, where it ends in ``operations``.
    var operationEnds: [Int] = []
    /// Every operation's encoded `Operation`, one after another.
    var operations: [UInt8] = []
    /// The changes kept whole, each with its place among all the changes (increasing).
    var whole: [(position: Int, bytes: [UInt8])] = []

    init(document: String, type: DocumentType, schemaVersion: UInt32) {
        self.document = document
        self.type = type
        self.schemaVersion = schemaVersion
        self.documentBytes = document.utf8.count
        self.typeName = type.writtenName
    }

    /// The number of changes, laid out by column or whole.
    var count: Int { seqs.count + whole.count }

    /// How many changes are laid out by column (the rest are kept whole).
    var laidOutCount: Int { seqs.count }

    /// Adds encoded changes after the others, each as ``append(_:)`` adds it, with room made for them
    /// all first.
    ///
    /// - Complexity: O(size of the changes).
    mutating func append(contentsOf changes: [[UInt8]]) {
        let count = changes.count
        replicaOf.reserveCapacity(seqs.count + count)
        seqs.reserveCapacity(seqs.count + count)
        stamps.reserveCapacity(seqs.count + count)
        operationCounts.reserveCapacity(seqs.count + count)
        operationEnds.reserveCapacity(operationEnds.count + count)
        // Whole changes: their operations are a little less.
        operations.reserveCapacity(operations.count + changes.reduce(0) { $0 + $1.count })
        for change in changes { append(change) }
    }

    /// Adds an encoded change after the others: by column if its columns give back its exact bytes,
    /// else whole.
    ///
    /// - Complexity: O(size of the change).
    mutating func append(_ bytes: [UInt8]) {
        if !layOut(bytes) { whole.append((count, bytes)) }
    }

    /// Whether the document's name and type are ones a change may carry.
    var hasValidNames: Bool {
        documentBytes > 0 && documentBytes <= WireLimits.maximumNameBytes
            && typeName.utf8.count <= WireLimits.maximumNameBytes
    }

    /// Lays `bytes` out by column if they are a change that ``ChangeCodec/decode(_:)`` accepts, of
    /// this document, type and schema, written canonically; else leaves the columns as they were.
    ///
    /// Canonical means what ``ChangeCodec/encode(_:)`` writes: fields in order, none at its default
    /// value, every varint as short as it can be. Any other way of writing the same fields takes more
    /// bytes, so a header and operation framing of the canonical sizes are the canonical bytes.
    private mutating func layOut(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= WireLimits.maximumChangeBytes, hasValidNames else { return false }
        var reader = WireReader(bytes)
        guard let replicaBytes = reader.lengthDelimited(1), let replica = ReplicaID(bytes: bytes[replicaBytes]),
            reader.key(2, 0), let seq = reader.varint(), seq >= 1, seq <= WireLimits.maximumSeq
        else { return false }
        var stamp: UInt64 = 0
        if reader.key(3, 1) {
            guard let value = reader.fixed64() else { return false }
            stamp = value
        }
        guard let name = reader.lengthDelimited(4), bytes[name].elementsEqual(document.utf8) else { return false }
        if schemaVersion != 0 {
            guard reader.key(5, 0), reader.varint() == UInt64(schemaVersion) else { return false }
        }
        var end = reader.index
        let id = ChangeID(replica: replica, seq: seq)
        guard
            end == ChangeCodec.headerSize(id, stamp: stamp, documentBytes: documentBytes, schemaVersion: schemaVersion)
        else { return false }
        let before = (operations: operations.count, ends: operationEnds.count)
        while let range = reader.lengthDelimited(6),
            range.upperBound == end + WireWriter.fieldSize(range.count),
            operationEnds.count - before.ends < WireLimits.maximumOperationsPerChange
        {
            operations.append(contentsOf: bytes[range])
            operationEnds.append(operations.count)
            end = range.upperBound
        }
        // The type is the snapshot's: written when it has a name, absent when it is unnamed.
        if !typeName.isEmpty, let range = reader.lengthDelimited(7),
            range.upperBound == end + WireWriter.fieldSize(range.count), bytes[range].elementsEqual(typeName.utf8)
        {
            end = range.upperBound
        } else if !typeName.isEmpty {
            end = -1
        }
        guard end == bytes.count else {
            operations.removeSubrange(before.operations...)
            operationEnds.removeSubrange(before.ends...)
            return false
        }
        replicaOf.append(number(of: replica))
        seqs.append(seq)
        stamps.append(stamp)
        operationCounts.append(UInt32(operationEnds.count - before.ends))
        return true
    }

    private mutating func number(of replica: ReplicaID) -> UInt32 {
        // Runs of one replica's changes are the rule.
        if let last = replicaOf.last, replicas[Int(last)] == replica { return last }
        if replicaNumbers.count < replicas.count {
            // Decoded columns fill the table only when something is appended to them.
            for (number, known) in replicas.enumerated() { replicaNumbers[known] = UInt32(number) }
        }
        if let number = replicaNumbers[replica] { return number }
        replicas.append(replica)
        replicaNumbers[replica] = UInt32(replicas.count - 1)
        return UInt32(replicas.count - 1)
    }
}

extension ChangeColumns {
    /// One change, as its columns give it or as it was kept.
    enum Item {
        /// A change laid out by column: its id, its stamp, and its operations as ranges of `operations`.
        case laidOut(ChangeID, Stamp, OperationRanges)
        case whole([UInt8])
    }

    /// Calls `body` on every change, in order, with the buffer its operations' ranges point into.
    ///
    /// - Complexity: O(changes + operations).
    func forEach<Failure: Error>(_ body: (Item, _ operations: [UInt8]) throws(Failure) -> Void) throws(Failure) {
        var laidOut = 0
        var nextOperation = 0
        var wholeIndex = 0
        for position in 0..<count {
            if wholeIndex < whole.count, whole[wholeIndex].position == position {
                try body(.whole(whole[wholeIndex].bytes), operations)
                wholeIndex += 1
                continue
            }
            var ranges = OperationRanges()
            for _ in 0..<operationCounts[laidOut] {
                let start = nextOperation == 0 ? 0 : operationEnds[nextOperation - 1]
                ranges.append(start..<operationEnds[nextOperation])
                nextOperation += 1
            }
            let id = ChangeID(replica: replicas[Int(replicaOf[laidOut])], seq: seqs[laidOut])
            try body(.laidOut(id, Stamp(rawValue: stamps[laidOut]), ranges), operations)
            laidOut += 1
        }
    }

    /// Every change's bytes, in order: for one laid out by column, the exact bytes it came as.
    ///
    /// - Complexity: O(size of the changes).
    var encodedChanges: [[UInt8]] {
        var changes: [[UInt8]] = []
        changes.reserveCapacity(count)
        forEach { item, operations in
            switch item {
            case .whole(let bytes):
                changes.append(bytes)
            case .laidOut(let id, let stamp, let ranges):
                var wire = WireWriter(
                    capacity: ChangeCodec.headerSize(
                        id,
                        stamp: stamp.rawValue,
                        documentBytes: documentBytes,
                        schemaVersion: schemaVersion
                    ) + ranges.reduce(0) { $0 + WireWriter.fieldSize($1.count) }
                        + (typeName.isEmpty ? 0 : WireWriter.fieldSize(typeName.utf8.count))
                )
                ChangeCodec.writeHeader(
                    id,
                    stamp: stamp.rawValue,
                    document: document,
                    schemaVersion: schemaVersion,
                    to: &wire
                )
                for range in ranges { wire.field(6, operations[range]) }
                if !typeName.isEmpty { wire.field(7, typeName.utf8) }
                changes.append(wire.bytes)
            }
        }
        return changes
    }

    /// Every change `Edit` reads: those laid out by column read by the type in one call, where their
    /// operations lie; those kept whole decoded. Changes of another type or a newer schema are left
    /// out. Not in order: a document's state is a function of the set of its changes.
    ///
    /// - Throws: ``WireError`` for a change kept whole that does not decode.
    func changes<Edit: DocumentEdit>(as _: Edit.Type) throws(WireError) -> [Change<Edit>] {
        let readsColumns = type == Edit.documentType && schemaVersion <= Edit.schemaVersion
        var laidOut: [LaidOutChange] = []
        laidOut.reserveCapacity(readsColumns ? seqs.count : 0)
        var wholeChanges: [[UInt8]] = []
        forEach { item, _ in
            switch item {
            case .whole(let bytes): wholeChanges.append(bytes)
            case .laidOut(let id, let stamp, let ranges):
                if readsColumns { laidOut.append(LaidOutChange(id: id, stamp: stamp, operations: ranges)) }
            }
        }
        var changes = Edit.changes(document: document, operations: operations[...], laidOut: laidOut)
        for bytes in wholeChanges {
            if let change = try ChangeCodec.decodeIfReadable(bytes, as: Edit.self) { changes.append(change) }
        }
        return changes
    }
}
