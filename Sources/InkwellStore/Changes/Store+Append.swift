import Foundation
import GRDB
import InkwellSync

extension Store {
    /// Stores `changes` in one transaction, and with `enqueue` also queues the new ones for upload.
    ///
    /// Idempotent by id: a change already held with the same content is skipped, and so is one held
    /// only inside its document's snapshot (its row removed by compaction), recognised by its id (see
    /// ``isCompacted(_:_:in:)``). If any change is invalid — too large, unnamed room or board, its id
    /// reused with different content, or a stamp that does not increase along its timeline — the whole
    /// batch is refused and nothing is stored. On success one ``StoreNotification`` names what was new.
    ///
    /// - Complexity: O(k log n) for k changes in a store of n, plus the frontier steps a change unblocks.
    @discardableResult
    public func append(_ changes: [StoredChange], enqueue: Bool = false) throws -> AppendResult {
        for change in changes { try validate(change) }
        return try write { db in
            var inserted: [ChangeID] = []
            var duplicates: [ChangeID] = []
            var documents: Set<DocumentKey> = []
            // Documents already in the index in this transaction: a batch of a thousand changes to one
            // board writes its index row once.
            var indexed: Set<[String]> = []
            var entities: Set<String> = []
            var timelines = NewTimelines()
            var tails: [DocumentKey: Int] = [:]
            var compacted = CompactedChanges(db)
            for change in changes {
                if try isCompacted(db, change, in: &compacted) {
                    duplicates.append(change.id)
                    continue
                }
                guard try Self.insert(db, change, into: &timelines) else {
                    let stored = try Self.fetchRow(db, change.id)
                    guard stored?.isSameChange(as: change) == true else {
                        throw StoreError.conflictingDuplicate(change.id)
                    }
                    duplicates.append(change.id)
                    continue
                }
                if enqueue { try Self.enqueue(db, change.id) }
                if indexed.insert([change.room, change.type.rawValue, change.document]).inserted {
                    try Self.index(db, change)
                }
                inserted.append(change.id)
                let key = DocumentKey(room: change.room, document: change.document)
                documents.insert(key)
                tails[key, default: 0] += 1
                entities.formUnion(change.entities)
            }
            try timelines.checkStamps(db)
            try timelines.advanceFrontiers(db)
            try Self.noteTails(db, tails, now: configuration.milliseconds)
            if !inserted.isEmpty {
                notifyAfterCommit(db, StoreNotification(changes: inserted, documents: documents, entities: entities))
            }
            return AppendResult(inserted: inserted, duplicates: duplicates)
        }
    }

    private func validate(_ change: StoredChange) throws {
        guard change.payload.count <= configuration.maximumChangeBytes else {
            throw StoreError.payloadTooLarge(
                change.id,
                size: change.payload.count,
                limit: configuration.maximumChangeBytes
            )
        }
        guard !change.room.isEmpty, !change.document.isEmpty else { throw StoreError.emptyName(change.id) }
        guard SQLValues.integer(change.id.seq) != nil else { throw StoreError.outOfRange(change.id) }
    }

    /// Inserts the change unless its id is taken; returns whether it did, and notes it in `timelines`
    /// for the checks that follow the batch.
    ///
    /// Inserting first and reading only on conflict keeps the common case (a new change) to one lookup.
    private static func insert(
        _ db: Database,
        _ change: StoredChange,
        into timelines: inout NewTimelines
    ) throws -> Bool {
        let replica = SQLValues.replica(change.id.replica)
        let seq = Int64(change.id.seq)
        let stamp = SQLValues.stamp(change.stamp)
        try db.cachedStatement(sql: insertNewRow)
            .execute(arguments: rowArguments(change))
        guard db.changesCount == 1 else { return false }
        timelines.note(change, replica: replica, seq: seq, stamp: stamp)
        return true
    }

    /// Writes again the row of a change its document's snapshot holds, inside its room's frontier: the
    /// frontier and the stamps along its timeline already count it.
    static func restoreRow(_ db: Database, _ change: StoredChange) throws {
        try db.cachedStatement(sql: insertRow).execute(arguments: rowArguments(change))
    }

    private static let insertRow = """
        INSERT INTO change (replica, seq, stamp, room, document, schema_version, payload, entities, type)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// ``insertRow`` unless the id is taken.
    private static let insertNewRow = insertRow + " ON CONFLICT (replica, seq) DO NOTHING"

    /// A change's columns, in ``insertRow``'s order.
    private static func rowArguments(_ change: StoredChange) -> StatementArguments {
        [
            SQLValues.replica(change.id.replica), Int64(change.id.seq), SQLValues.stamp(change.stamp), change.room,
            change.document, Int64(change.schemaVersion), Data(change.payload), EntityList.encode(change.entities),
            change.type.rawValue,
        ]
    }

    /// Lists the change's document in the index of documents, if it is not there yet.
    private static func index(_ db: Database, _ change: StoredChange) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO document (room, type, name) VALUES (?, ?, ?)")
            .execute(arguments: [change.room, change.type.rawValue, change.document])
    }

    static func fetchRow(_ db: Database, _ id: ChangeID) throws -> StoredChange? {
        guard let seq = SQLValues.integer(id.seq) else { return nil }
        let statement = try db.cachedStatement(
            sql: "SELECT \(StoredChange.columns) FROM change WHERE replica = ? AND seq = ?"
        )
        return try Row.fetchOne(statement, arguments: [SQLValues.replica(id.replica), seq]).map(StoredChange.init)
    }
}
