// The records both stores keep, and the interface they share (store-memory.js for node tests,
// store-indexeddb.js for the page). Every method is async and every write is one transaction: either all
// of it is stored or none of it.
//
// Changes are kept as their encoded bytes, exactly as made or received (DESIGN §1: memory, disk and
// network carry the same bytes). The outbox is split by replica: a page writes and pushes only the
// timelines it holds a lease on, so two tabs never push, or number, the same timeline.

import { compareStamps } from '../model/stamp.js';

/**
 * @typedef {{wall: number, counter: number}} Stamp
 * @typedef {{
 *   key: string, room: string, board: string, replica: string, seq: number, stamp: Stamp,
 *   schemaVersion: number, bytes: Uint8Array
 * }} StoredChange a change, encoded; `key` is `<replica>-<seq>`
 * @typedef {{hex: string, room: string, replica: string, changeKeys: string[], bytes: Uint8Array}} PendingPack
 *   a pack pushed (or about to be) and not yet acknowledged, kept byte for byte so a push again after a
 *   lost ack has the same id and the server stores it once
 * @typedef {{room: string, kind: 'pack' | 'change', schemaVersion: number, bytes: Uint8Array, reason?: string}} AsideItem
 *   bytes not applied, and why (`reason`): none, for bytes from a newer schema (or an encrypted pack), to
 *   be decoded after an upgrade; `stampAhead`, for a change stamped further ahead of this page's clock
 *   than the protocol's lead, to be applied once the clock has caught up; any other reason (a WireError
 *   code: `badSignature`, `forgedAuthor`, `wrongRoom`, `invalidField`, `malformed`, …) for a pack that
 *   failed verification, kept to be looked at and never decoded into a board
 * @typedef {{room: string, replica: string, lastSeq: number}} ReplicaRecord one timeline of this store
 * @typedef {{key: string, replica: string, seq: number}} OutboxEntry a local change not yet packed
 * @typedef {{
 *   changes: StoredChange[], outbox: OutboxEntry[], packs: PendingPack[],
 *   aside: (AsideItem & {id: number})[], watermark: number, replicas: ReplicaRecord[],
 *   held: string[], liveAt: number | null, heard: HeardSnapshot | null, cover: CutEntry[], pruned: CutEntry[]
 * }} RoomContents everything a store holds for one room; `held`: the keys of the received changes held
 *   for review (stored like the others, kept off the live board until merged); `liveAt`: the last time
 *   a session of the room was live (connected and caught up), null if never; `heard`: the newest room
 *   snapshot a session of the room heard of, sent or checked, null if none; `cover`: what the room snapshots
 *   taken in place of packs stand for; `pruned`: how far this store left out changes that stopped mattering
 * @typedef {{replica: string, seq: number, stamp: Stamp}} CutEntry one timeline of a cut: its changes 1
 *   through `seq`, and the latest stamp known of them
 * @typedef {{cover: CutEntry[], pruned: CutEntry[], changes: number, kept: number}} Standing what a store
 *   stands for of a room without holding it, and how it compacted: `cover` and `pruned` as in RoomContents;
 *   `changes`: the change records it holds of the room now; `kept`: those it held after its last
 *   compaction that it could consider (0 before the first)
 * @typedef {{position: number, changes: number, held: number}} HeardSnapshot a room snapshot: the position
 *   it stands for, how many changes its cut stands for, and how many it holds
 * @typedef {{room: string, admin: string | null, edit: string | null, view: string | null, key: string | null}} AccessRecord
 *   what this device holds to open a room (access.js): its capabilities in text form, by kind (the admin
 *   one only on the device that made the board: it never goes in a link), and the room key's text (null
 *   for a plain board). A room with no record, or one with no capability, is an open room.
 * @typedef {{replica: string, lastSeq: number, keys: CryptoKeyPair, release: () => void}} ReplicaLease the
 *   right to write one timeline, held until released (or the page goes away), with the key pair that owns
 *   it and signs its packs (`replica` is derived from its public key)
 */

/**
 * The store interface. `claimReplica` leases the room's first keyed timeline no other session holds,
 * creating one (and its key) if all are held; `tryLease` leases a given keyed timeline if it is free (to
 * push what a closed tab left queued). Timelines without a key (made before packs were signed) are never
 * leased. `loadAside` reads what `loadRoom` reports as `aside`, for a session that looks again.
 * `storeRemote` marks as held those of the `hold` keys whose changes it inserts (a change stored already
 * keeps its place on the board), in the same transaction; `releaseHeld` merges them: the marks go.
 * `saveAccess` replaces the room's access record; `loadAccess` reads it (null when none is kept);
 * `updateAccess` reads and replaces it in one step that no other tab's write falls inside: `update` (which
 * must not wait) is given what is held and returns the record to keep, or null to keep what is held; it
 * resolves with what the store holds then. `exclusiveAccess` runs `body` while no other session of the
 * profile runs one for the room (Web Locks across tabs), and resolves with what it resolves with.
 * `replaceAside` replaces an aside item by the changes it opened to and the items that stay aside of it
 * (`promoteAside` with none); `loadChanges` reads stored changes' bytes by key (undefined for one not
 * stored), so a room snapshot is compared with what is held; `requeue` puts stored changes back in the
 * outbox, for the server to get again what a snapshot left out. `loadKeys` lists the keys of every change
 * stored for a room. `hearSnapshot` keeps a room snapshot heard of unless one of a later position is kept
 * (another tab may have heard of a newer one), and resolves with the one kept.
 *
 * Compaction (store-compaction.js): `prune` removes, in one transaction, the stored changes of `keys` that
 * are not queued, in a pack waiting for its ack, or held for review, merges `through` into the room's
 * `pruned` cut (mergeCut) and keeps as `kept` the change records left, less `outside` (those the pass could
 * not consider); it resolves with the keys removed. `standFor` merges a
 * room snapshot's cut into the room's `cover`, and resolves with the cover kept. `loadStanding` reads both
 * cuts with the counts that say when to compact again. `loadReplicas` lists the room's timelines (their last
 * seqs). `exclusiveAccess` takes turns by `turn` too: `access` (the default) for rotations, `compaction` for
 * compaction passes.
 * @typedef {{
 *   claimReplica(room: string): Promise<ReplicaLease>,
 *   tryLease(room: string, replica: string): Promise<ReplicaLease | null>,
 *   loadRoom(room: string): Promise<RoomContents>,
 *   loadAside(room: string): Promise<(AsideItem & {id: number})[]>,
 *   recordLocal(change: StoredChange): Promise<void>,
 *   storeRemote(room: string, changes: StoredChange[], aside: AsideItem[], hold?: string[]): Promise<string[]>,
 *   promoteAside(room: string, id: number, changes: StoredChange[]): Promise<string[]>,
 *   replaceAside(room: string, id: number, changes: StoredChange[], aside: AsideItem[]): Promise<string[]>,
 *   loadChanges(room: string, keys: string[]): Promise<(Uint8Array | undefined)[]>,
 *   loadKeys(room: string): Promise<string[]>,
 *   requeue(room: string, keys: string[]): Promise<StoredChange[]>,
 *   packPlanned(pack: PendingPack): Promise<void>,
 *   acknowledgePack(room: string, hex: string): Promise<void>,
 *   setWatermark(room: string, position: number): Promise<number>,
 *   releaseHeld(room: string, keys: string[]): Promise<void>,
 *   noteLive(room: string, time: number): Promise<number>,
 *   hearSnapshot(room: string, snapshot: HeardSnapshot): Promise<HeardSnapshot>,
 *   loadAccess(room: string): Promise<AccessRecord | null>,
 *   saveAccess(record: AccessRecord): Promise<void>,
 *   updateAccess(room: string, update: (held: AccessRecord | null) => AccessRecord | null): Promise<AccessRecord | null>,
 *   exclusiveAccess<T>(room: string, body: () => Promise<T>, turn?: string): Promise<T>,
 *   loadReplicas(room: string): Promise<ReplicaRecord[]>,
 *   loadStanding(room: string): Promise<Standing>,
 *   standFor(room: string, cut: CutEntry[]): Promise<CutEntry[]>,
 *   prune(room: string, keys: string[], through: CutEntry[], outside?: number): Promise<string[]>,
 *   close(): void
 * }} Store
 */

/**
 * The store's record of a change.
 * @param {string} room
 * @param {{id: {replica: string, seq: number}, stamp: Stamp, board: string}} change
 * @param {Uint8Array} bytes its encoding
 * @param {number} schemaVersion
 * @returns {StoredChange}
 */
export function storedChange(room, change, bytes, schemaVersion) {
  return {
    key: `${change.id.replica}-${change.id.seq}`,
    room,
    board: change.board,
    replica: change.id.replica,
    seq: change.id.seq,
    stamp: { wall: change.stamp.wall, counter: change.stamp.counter },
    schemaVersion,
    bytes,
  };
}

/**
 * Two cuts merged, as both stores keep them: each timeline as far as either goes, with the later of the
 * stamps known at that seq (stamps grow along a timeline, so the later stamp is the one nearer its end).
 * @param {CutEntry[]} held
 * @param {CutEntry[]} more
 * @returns {CutEntry[]}
 * - Complexity: O(timelines).
 */
export function mergeCut(held, more) {
  /** @type {Map<string, CutEntry>} */
  const merged = new Map();
  for (const entry of [...held, ...more]) {
    const known = merged.get(entry.replica);
    if (known === undefined || known.seq < entry.seq) {
      const stamp = known === undefined || compareStamps(known.stamp, entry.stamp) < 0 ? entry.stamp : known.stamp;
      merged.set(entry.replica, { replica: entry.replica, seq: entry.seq, stamp: { ...stamp } });
    } else if (compareStamps(known.stamp, entry.stamp) < 0) {
      known.stamp = { ...entry.stamp };
    }
  }
  return [...merged.values()];
}
