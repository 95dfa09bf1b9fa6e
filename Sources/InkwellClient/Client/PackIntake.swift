package import InkwellStore
package import InkwellSync
package import InkwellWire
package import Logging

/// Stores the packs of one `packs` frame: verifies and decodes them, keeps what this version cannot read
/// yet or must not apply, and appends their changes in one transaction. Runs on the connection's reading
/// task, off the client's actor.
///
/// A pack is applied only if its signature holds, it was signed for the room it came in, it is sealed with
/// the room's key when the room is encrypted (and opens with it), and every change inside is its
/// signer's (``PackCodec/decode(_:room:understanding:key:)``): anything else is kept aside and
/// never applied, whatever the server said. A change stamped further ahead of `clock` than
/// ``SyncProtocol/maximumStampLeadMilliseconds`` is kept aside too, and taken in by ``review(logger:)``
/// once the clock has caught up, so no stamp can freeze this device's clock or win every later write.
package struct PackIntake: Sendable {
    /// What one frame's packs came to.
    package struct Result: Sendable {
        /// Positions of the packs whose changes are now stored, set aside, or unreadable for good:
        /// all of them, unless storing threw.
        package var positions: [UInt64] = []
        /// The packs' size on the wire.
        package var packBytes: UInt64 = 0
        /// The changes that were new to the store, in pack order.
        package var inserted: [ClientChange] = []
        /// The greatest stamp among the decoded changes, for the clock to witness.
        package var latestStamp: Stamp?
        /// Packs from a newer schema, or changes stamped too far ahead, kept with
        /// ``Store/storeAside(_:schemaVersion:room:)``.
        package var setAside = 0
        /// This device's own queued changes that came back in the packs, and so left the outbox.
        package var acknowledged = 0
        /// Packs refused for their signature, author or room: kept aside, never applied.
        package var forged = 0
        /// Changes that did not decode or that the store refused.
        package var rejected = 0
        /// Snapshots whose last part came in this frame, and what became of them.
        var snapshots: [SnapshotOutcome] = []
    }

    let store: Store
    /// Now, as received stamps are judged (the server-corrected clock).
    let clock: any WallClock
    /// What indexes received changes by the entities they touch.
    var documentTypes = DocumentTypes()
    /// The newest pack schema this version decodes; a pack of a newer one is kept aside for a version that can.
    var understanding = WireSchema.current
    /// What this connection learns of each room's log, and the snapshot parts it gathers; without it,
    /// snapshot parts count as seen and are otherwise ignored.
    var snapshots: SnapshotTracker?

    package init(store: Store, clock: any WallClock, documentTypes: DocumentTypes = DocumentTypes()) {
        self.store = store
        self.clock = clock
        self.documentTypes = documentTypes
    }

    /// The schema a pack kept aside for good is stored under (``keepForged(_:room:reason:logger:)``), so
    /// that ``reopen(logger:)`` never tries it again.
    static let neverReopened: UInt32 = 0

    /// - Throws: ``StoreError`` when the store itself fails (not when it refuses a change); then no
    ///   position counts as seen, and the packs come again after the reconnection.
    package func ingest(room: String, packs: [StoredPack], logger: Logger) throws -> Result {
        var result = Result()
        var changes: [StoredChange] = []
        var decoded: [ChangeID: EncodedChange] = [:]
        let latestAcceptable = clock.millisecondsSince1970() + SyncProtocol.maximumStampLeadMilliseconds
        // An encrypted room's packs open only with its key, and a plain pack there is refused.
        let key = try store.credentials(room: room)?.key
        try startTracking(room)
        var snapshotChanges: [(change: EncodedChange, bytes: [UInt8])] = []
        // This device's own changes that came back in packs (a catch-up after an acknowledgement was lost):
        // the server holds them, so they leave the outbox, as an acknowledgement would take them. Whether an
        // author is this device is one read per author a frame, never a write.
        var isOwn: [ReplicaID: Bool] = [:]
        var ownStored: [ChangeID] = []
        for stored in packs {
            result.packBytes += UInt64(stored.bytes.count)
            let pack: ReceivedPack
            do {
                pack = try PackCodec.decode(stored.bytes, room: room, understanding: understanding, key: key)
            } catch .snapshotPart {
                if let outcome = try takePart(stored, room: room, key: key, rebase: nil, logger: logger) {
                    if case .accepted(let new, _) = outcome.verdict { snapshotChanges += new }
                    result.snapshots.append(outcome)
                }
                continue
            } catch let error where error.futureSchemaVersion != nil || error == .encrypted {
                // Signed by its author and kept whole, to be decoded by a version that can (DESIGN §6).
                let version = (try? PackCodec.header(of: stored.bytes).schemaVersion) ?? WireSchema.current
                try store.storeAside(stored.bytes, schemaVersion: version, room: room)
                result.setAside += 1
                logger.notice("pack set aside", metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"])
                continue
            } catch let error where error == .badSignature || error == .forgedAuthor || error == .wrongRoom {
                try keepForged(stored, room: room, reason: error, logger: logger)
                result.forged += 1
                continue
            } catch {
                // Unsigned or malformed: nothing in it can be attributed, so nothing in it is applied.
                try keepForged(stored, room: room, reason: error, logger: logger)
                result.forged += 1
                continue
            }
            var newest: UInt64 = 0
            let fromThisDevice: Bool
            if let known = isOwn[pack.author] {
                fromThisDevice = known
            } else {
                fromThisDevice = try store.authorKey(of: pack.author) != nil
                isOwn[pack.author] = fromThisDevice
            }
            for entry in pack.changes {
                do {
                    let change = try ChangeCodec.decode(entry)
                    newest = max(newest, change.id.seq)
                    if fromThisDevice { ownStored.append(change.id) }
                    guard change.stamp.wallMilliseconds <= latestAcceptable else {
                        try store.storeAside(entry, schemaVersion: pack.schemaVersion, room: room)
                        result.setAside += 1
                        logger.warning(
                            "change stamped ahead of this device's clock set aside",
                            metadata: ["change": "\(change.id)", "stamp": "\(change.stamp)"]
                        )
                        continue
                    }
                    decoded[change.id] = change
                    changes.append(
                        StoredChange(change, room: room, encoded: entry, entities: documentTypes.entities(of: change))
                    )
                    result.latestStamp = max(result.latestStamp ?? change.stamp, change.stamp)
                } catch let error as WireError {
                    result.rejected += 1
                    logger.error(
                        "change does not decode; skipped",
                        metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"]
                    )
                }
            }
            if newest > 0 {
                snapshots?.received(room: room, position: stored.serverSeq, replica: pack.author, seq: newest)
            }
        }
        for (change, bytes) in snapshotChanges {
            decoded[change.id] = change
            changes.append(
                StoredChange(change, room: room, encoded: bytes, entities: documentTypes.entities(of: change))
            )
        }
        let inserted = try append(changes, result: &result, logger: logger)
        // Before the caller stores a watermark past them (a snapshot made after reads its own timeline off
        // what the outbox no longer holds).
        if !ownStored.isEmpty { result.acknowledged = try store.acknowledge(ownStored) }
        result.inserted = inserted.compactMap { id in
            decoded[id].map { ClientChange(room: room, change: $0, origin: .remote) }
        }
        result.positions = packs.map(\.serverSeq)
        return result
    }

    /// Keeps a pack that must not be applied, so that what was refused can be inspected; it is never
    /// decoded into the board.
    private func keepForged(_ stored: StoredPack, room: String, reason: WireError, logger: Logger) throws {
        logger.error(
            "pack refused: not applied, kept aside",
            metadata: ["position": "\(stored.serverSeq)", "reason": "\(reason)"]
        )
        try store.storeAside(stored.bytes, schemaVersion: Self.neverReopened, room: room)
    }

    /// Decodes and appends the packs kept aside that now open: those of a schema this version has come to
    /// understand since (after an upgrade), and sealed ones that came before this device held the room's
    /// key. Each is verified as on arrival, its changes stamped too far ahead are kept aside as changes,
    /// and it is forgotten once its changes are stored. The rest stay; forged packs are never tried.
    ///
    /// - Returns: the changes newly stored.
    func reopen(logger: Logger) throws -> [ClientChange] {
        let latestAcceptable = clock.millisecondsSince1970() + SyncProtocol.maximumStampLeadMilliseconds
        var opened: [Int64] = []
        var changes: [StoredChange] = []
        var decoded: [ChangeID: ClientChange] = [:]
        var keys: [String: RoomKey?] = [:]
        for item in try store.storedAside(upTo: understanding) where item.schemaVersion != Self.neverReopened {
            // A kept change has no pack header: those are ``review(logger:)``'s.
            guard let header = try? PackCodec.header(of: item.bytes), !header.room.isEmpty else { continue }
            if keys[item.room] == nil { keys[item.room] = try store.credentials(room: item.room)?.key }
            guard
                let pack = try? PackCodec.decode(
                    item.bytes,
                    room: item.room,
                    understanding: understanding,
                    key: keys[item.room] ?? nil
                )
            else { continue }
            for entry in pack.changes {
                guard let change = try? ChangeCodec.decode(entry) else { continue }
                guard change.stamp.wallMilliseconds <= latestAcceptable else {
                    try store.storeAside(entry, schemaVersion: pack.schemaVersion, room: item.room)
                    continue
                }
                decoded[change.id] = ClientChange(room: item.room, change: change, origin: .remote)
                changes.append(
                    StoredChange(change, room: item.room, encoded: entry, entities: documentTypes.entities(of: change))
                )
            }
            opened.append(item.id)
        }
        guard !opened.isEmpty else { return [] }
        var result = Result()
        let inserted = try append(changes, result: &result, logger: logger)
        try store.removeStoredAside(opened)
        logger.notice(
            "packs kept aside opened and stored",
            metadata: ["packs": "\(opened.count)", "changes": "\(inserted.count)"]
        )
        return inserted.compactMap { decoded[$0] }
    }

    /// Takes in the changes kept aside for their stamps whose time has come: each is appended and
    /// forgotten; the rest stay. Packs kept aside are left alone.
    ///
    /// - Returns: the changes newly stored.
    func review(logger: Logger) throws -> [ClientChange] {
        let latestAcceptable = clock.millisecondsSince1970() + SyncProtocol.maximumStampLeadMilliseconds
        var due: [(id: Int64, change: EncodedChange, stored: StoredChange)] = []
        for item in try store.storedAside(upTo: WireSchema.current) {
            // A kept pack is signed and names its room; a change is neither, so this tells them apart.
            if (try? PackCodec.header(of: item.bytes))?.room.isEmpty == false { continue }
            guard let change = try? ChangeCodec.decode(item.bytes),
                change.stamp.wallMilliseconds <= latestAcceptable
            else { continue }
            due.append(
                (
                    item.id, change,
                    StoredChange(
                        change,
                        room: item.room,
                        encoded: item.bytes,
                        entities: documentTypes.entities(of: change)
                    )
                )
            )
        }
        guard !due.isEmpty else { return [] }
        var result = Result()
        let inserted = Set(try append(due.map(\.stored), result: &result, logger: logger))
        try store.removeStoredAside(due.map(\.id))
        logger.notice("changes kept aside for their stamps taken in", metadata: ["changes": "\(inserted.count)"])
        return due.filter { inserted.contains($0.change.id) }.map {
            ClientChange(room: $0.stored.room, change: $0.change, origin: .remote)
        }
    }

    /// Appends in one transaction; if the store refuses a change, appends one by one so the others are kept.
    func append(_ changes: [StoredChange], result: inout Result, logger: Logger) throws -> [ChangeID] {
        guard !changes.isEmpty else { return [] }
        do {
            return try store.append(changes).inserted
        } catch let error as StoreError where error.change != nil {
            logger.warning(
                "the store refused a received change; storing the others one by one",
                metadata: ["reason": "\(error)"]
            )
        }
        var inserted: [ChangeID] = []
        for change in changes {
            do {
                inserted += try store.append([change]).inserted
            } catch let error as StoreError where error.change == change.id {
                // A change the store refuses now it refuses forever (a reused id, a stamp out of order):
                // waiting for it would hold the watermark back for good.
                result.rejected += 1
                logger.error(
                    "received change refused; skipped",
                    metadata: ["change": "\(change.id)", "reason": "\(error)"]
                )
            }
        }
        return inserted
    }
}
