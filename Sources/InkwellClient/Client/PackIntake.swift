import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// Stores the packs of one `packs` frame: decodes them, keeps what this version cannot read yet, and
/// appends their changes in one transaction. Runs on the connection's reading task, off the client's actor.
struct PackIntake: Sendable {
    /// What one frame's packs came to.
    struct Result: Sendable {
        /// Positions of the packs whose changes are now stored, set aside, or unreadable for good:
        /// all of them, unless storing threw.
        var positions: [UInt64] = []
        /// The packs' size on the wire.
        var packBytes: UInt64 = 0
        /// The changes that were new to the store, in pack order.
        var inserted: [ClientChange] = []
        /// The greatest stamp among the decoded changes, for the clock to witness.
        var latestStamp: Stamp?
        /// Packs or changes from a newer schema, kept with ``Store/storeAside(_:schemaVersion:room:)``.
        var setAside = 0
        /// Changes that did not decode or that the store refused.
        var rejected = 0
    }

    let store: Store

    /// - Throws: ``StoreError`` when the store itself fails (not when it refuses a change); then no
    ///   position counts as seen, and the packs come again after the reconnection.
    func ingest(room: String, packs: [StoredPack], logger: Logger) throws -> Result {
        var result = Result()
        var changes: [StoredChange] = []
        var decoded: [ChangeID: BoardChange] = [:]
        for stored in packs {
            result.packBytes += UInt64(stored.bytes.count)
            let pack: Pack
            do {
                pack = try PackCodec.decode(stored.bytes)
            } catch let error where error.futureSchemaVersion != nil || error == .encrypted {
                // Kept whole, to be decoded by a version that can (DESIGN §6).
                let version = (try? PackCodec.header(of: stored.bytes).schemaVersion) ?? WireSchema.current
                try store.storeAside(stored.bytes, schemaVersion: version, room: room)
                result.setAside += 1
                logger.notice("pack set aside", metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"])
                continue
            } catch {
                logger.error(
                    "pack does not decode; skipped",
                    metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"]
                )
                continue
            }
            for entry in pack.entries {
                guard entry.room == room else {
                    logger.warning(
                        "pack entry names another room; skipped",
                        metadata: ["position": "\(stored.serverSeq)"]
                    )
                    continue
                }
                do {
                    let change = try ChangeCodec.decode(entry.change)
                    decoded[change.id] = change
                    changes.append(
                        StoredChange(change, room: room, encoded: entry.change, schemaVersion: pack.schemaVersion)
                    )
                    result.latestStamp = max(result.latestStamp ?? change.stamp, change.stamp)
                } catch let error where error.futureSchemaVersion != nil {
                    try store.storeAside(entry.change, schemaVersion: error.futureSchemaVersion!, room: room)
                    result.setAside += 1
                } catch {
                    result.rejected += 1
                    logger.error(
                        "change does not decode; skipped",
                        metadata: ["position": "\(stored.serverSeq)", "reason": "\(error)"]
                    )
                }
            }
        }
        let inserted = try append(changes, result: &result, logger: logger)
        result.inserted = inserted.compactMap { id in
            decoded[id].map { ClientChange(room: room, change: $0, origin: .remote) }
        }
        result.positions = packs.map(\.serverSeq)
        return result
    }

    /// Appends in one transaction; if the store refuses a change, appends one by one so the others are kept.
    private func append(_ changes: [StoredChange], result: inout Result, logger: Logger) throws -> [ChangeID] {
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
