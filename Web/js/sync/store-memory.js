// The store in memory, for node tests: the same async interface and rules as store-indexeddb.js (see
// store-records.js). Sessions opened on one MemoryStore behave like tabs sharing one browser profile:
// timelines are leased in-process, and closing a session and opening another is a reload.

import { generateAuthorKey } from '../wire/author-key.js';
import { SyncError } from './errors.js';
import { newReplicaRecord } from './replica-key.js';
import { mergeCut } from './store-records.js';
import { Turns } from './web-locks.js';

/** @typedef {import('./store-records.js').StoredChange} StoredChange */
/** @typedef {import('./store-records.js').PendingPack} PendingPack */
/** @typedef {import('./store-records.js').AsideItem} AsideItem */
/** @typedef {import('./store-records.js').ReplicaLease} ReplicaLease */
/** @typedef {import('./store-records.js').AccessRecord} AccessRecord */
/** @typedef {import('./store-records.js').CutEntry} CutEntry */

export class MemoryStore {
  /** @type {Map<string, StoredChange>} by `room/key` */
  #changes = new Map();
  /** @type {Map<string, {key: string, replica: string, seq: number, room: string}>} by `room/key` */
  #outbox = new Map();
  /** @type {Map<string, PendingPack>} by `room/hex` */
  #packs = new Map();
  /** @type {Map<number, AsideItem>} */
  #aside = new Map();
  #nextAside = 1;
  /** @type {Map<string, number>} */
  #watermarks = new Map();
  /** Received changes held for review, by `room/key`. @type {Set<string>} */
  #held = new Set();
  /** @type {Map<string, number>} */
  #liveAt = new Map();
  /** The newest room snapshot heard of, by room. @type {Map<string, import('./store-records.js').HeardSnapshot>} */
  #heard = new Map();
  /** What the room snapshots taken stand for, by room. @type {Map<string, CutEntry[]>} */
  #cover = new Map();
  /** How far compaction left changes out, and the changes it kept, by room. @type {Map<string, {through: CutEntry[], kept: number}>} */
  #pruned = new Map();
  /** Timelines in creation order. @type {{room: string, replica: string, lastSeq: number, keys: CryptoKeyPair | null}[]} */
  #replicas = [];
  /** What this device holds to open each room. @type {Map<string, AccessRecord>} */
  #access = new Map();
  /** Turns at a room's access and its compaction, as the sessions sharing this store take them. */
  #turns = new Turns();
  /** Leased timelines, as `room/replica`. @type {Set<string>} */
  #leases = new Set();
  #generateKey;
  /** Set to an Error to make every later write fail with it: for tests of a failing disk. */
  failWrites = null;

  /**
   * @param {{
   *   generateKey?: () => Promise<CryptoKeyPair>,
   *   legacyReplicas?: {room: string, replica: string, lastSeq: number}[]
   * }} [options] `generateKey`: inject keys made from fixed seeds in tests; `legacyReplicas`: timelines an
   *   earlier version made, without keys, for tests of the upgrade
   */
  constructor({ generateKey = generateAuthorKey, legacyReplicas = [] } = {}) {
    this.#generateKey = generateKey;
    for (const record of legacyReplicas) this.#replicas.push({ ...record, keys: null });
  }

  /** @param {string} room @returns {Promise<ReplicaLease>} */
  async claimReplica(room) {
    for (const record of this.#replicas) {
      if (record.room !== room || record.keys === null) continue;
      const lease = this.#lease(record);
      if (lease !== null) return lease;
    }
    const { replica, keys } = await newReplicaRecord(this.#generateKey);
    const record = { room, replica, lastSeq: 0, keys };
    this.#replicas.push(record);
    return /** @type {ReplicaLease} */ (this.#lease(record));
  }

  /** @param {string} room @param {string} replica @returns {Promise<ReplicaLease | null>} */
  async tryLease(room, replica) {
    const record = this.#replicas.find((r) => r.room === room && r.replica === replica);
    // A timeline without a key cannot sign its packs: what it left queued stays here, unpushed.
    return record === undefined || record.keys === null ? null : this.#lease(record);
  }

  /** @param {string} room */
  async loadRoom(room) {
    const inRoom = (/** @type {{room: string}} */ value) => value.room === room;
    return {
      changes: [...this.#changes.values()].filter(inRoom).map(copyChange),
      outbox: [...this.#outbox.values()].filter(inRoom).map(({ key, replica, seq }) => ({ key, replica, seq })),
      packs: [...this.#packs.values()].filter(inRoom).map((pack) => ({ ...pack, changeKeys: [...pack.changeKeys] })),
      aside: [...this.#aside].filter(([, item]) => item.room === room).map(([id, item]) => ({ ...item, id })),
      watermark: this.#watermarks.get(room) ?? 0,
      replicas: this.#replicas.filter(inRoom).map(({ room: name, replica, lastSeq }) => ({ room: name, replica, lastSeq })),
      held: [...this.#held].filter((id) => id.startsWith(`${room}/`)).map((id) => id.slice(room.length + 1)),
      liveAt: this.#liveAt.get(room) ?? null,
      heard: this.#heard.has(room) ? { ...this.#heard.get(room) } : null,
      cover: copyCut(this.#cover.get(room) ?? []),
      pruned: copyCut(this.#pruned.get(room)?.through ?? []),
    };
  }

  /** @param {string} room @returns {Promise<import('./store-records.js').ReplicaRecord[]>} */
  async loadReplicas(room) {
    return this.#replicas.filter((r) => r.room === room).map(({ replica, lastSeq }) => ({ room, replica, lastSeq }));
  }

  /** @param {string} room @returns {Promise<import('./store-records.js').Standing>} */
  async loadStanding(room) {
    return {
      cover: copyCut(this.#cover.get(room) ?? []),
      pruned: copyCut(this.#pruned.get(room)?.through ?? []),
      changes: this.#count(room),
      kept: this.#pruned.get(room)?.kept ?? 0,
    };
  }

  /** Merges a room snapshot's cut into what the room's store stands for. @param {string} room @param {CutEntry[]} cut */
  async standFor(room, cut) {
    this.#checkWritable();
    const cover = mergeCut(this.#cover.get(room) ?? [], cut);
    this.#cover.set(room, cover);
    return copyCut(cover);
  }

  /**
   * Removes the stored changes of `keys` that are not queued, in a pack waiting for its ack, or held for
   * review; merges `through` into the room's pruned cut, and counts what is left, less `outside`.
   * @param {string} room @param {string[]} keys @param {CutEntry[]} through @param {number} [outside]
   * @returns {Promise<string[]>} the keys removed
   */
  async prune(room, keys, through, outside = 0) {
    this.#checkWritable();
    const pending = new Set();
    for (const pack of this.#packs.values()) if (pack.room === room) for (const key of pack.changeKeys) pending.add(key);
    const removed = [];
    for (const key of keys) {
      const id = `${room}/${key}`;
      if (!this.#changes.has(id) || this.#outbox.has(id) || this.#held.has(id) || pending.has(key)) continue;
      this.#changes.delete(id);
      removed.push(key);
    }
    const previous = this.#pruned.get(room)?.through ?? [];
    this.#pruned.set(room, { through: mergeCut(previous, through), kept: Math.max(this.#count(room) - outside, 0) });
    return removed;
  }

  /** The keys of every change stored for a room. @param {string} room @returns {Promise<string[]>} */
  async loadKeys(room) {
    return [...this.#changes.values()].filter((change) => change.room === room).map((change) => change.key);
  }

  /** The items kept aside for a room, with their ids. @param {string} room */
  async loadAside(room) {
    return [...this.#aside].filter(([, item]) => item.room === room).map(([id, item]) => ({ ...item, id }));
  }

  /** Stores a change made here and queues it, checking that its seq was never given out. @param {StoredChange} change */
  async recordLocal(change) {
    this.#checkWritable();
    const record = this.#replicas.find((r) => r.room === change.room && r.replica === change.replica);
    if (record === undefined || record.lastSeq >= change.seq) throw SyncError.seqConflict();
    record.lastSeq = change.seq;
    this.#changes.set(`${change.room}/${change.key}`, copyChange(change));
    this.#outbox.set(`${change.room}/${change.key}`, {
      key: change.key,
      replica: change.replica,
      seq: change.seq,
      room: change.room,
    });
  }

  /**
   * Stores received changes (those already here are skipped) and items set aside; marks the new ones
   * among `hold` as held for review.
   * @param {string} room @param {StoredChange[]} changes @param {AsideItem[]} aside @param {string[]} [hold]
   * @returns {Promise<string[]>} the keys of the changes that were new
   */
  async storeRemote(room, changes, aside = [], hold = []) {
    this.#checkWritable();
    const inserted = [];
    const held = new Set(hold);
    for (const change of changes) {
      const id = `${room}/${change.key}`;
      if (this.#changes.has(id)) continue;
      this.#changes.set(id, copyChange(change));
      if (held.has(change.key)) this.#held.add(id);
      inserted.push(change.key);
    }
    for (const item of aside) this.#aside.set(this.#nextAside++, { ...item, bytes: item.bytes.slice() });
    return inserted;
  }

  /** Replaces an item set aside by the changes it decoded to (after an upgrade). */
  async promoteAside(room, id, changes) {
    return this.replaceAside(room, id, changes, []);
  }

  /**
   * Replaces an item set aside by the changes it opened to and what of it stays aside.
   * @param {string} room @param {number} id @param {StoredChange[]} changes @param {AsideItem[]} aside
   */
  async replaceAside(room, id, changes, aside) {
    this.#checkWritable();
    const inserted = await this.storeRemote(room, changes, aside);
    this.#aside.delete(id);
    return inserted;
  }

  /**
   * The bytes of stored changes, by key; undefined for those not stored.
   * @param {string} room @param {string[]} keys
   * @returns {Promise<(Uint8Array | undefined)[]>}
   */
  async loadChanges(room, keys) {
    return keys.map((key) => this.#changes.get(`${room}/${key}`)?.bytes.slice());
  }

  /**
   * Queues stored changes of this store's timelines again, to be pushed again; those not stored, or
   * queued already, are skipped.
   * @param {string} room @param {string[]} keys
   * @returns {Promise<StoredChange[]>} the changes queued
   */
  async requeue(room, keys) {
    this.#checkWritable();
    const queued = [];
    for (const key of keys) {
      const change = this.#changes.get(`${room}/${key}`);
      if (change === undefined || this.#outbox.has(`${room}/${key}`)) continue;
      this.#outbox.set(`${room}/${key}`, { key, replica: change.replica, seq: change.seq, room });
      queued.push(copyChange(change));
    }
    return queued;
  }

  /** Takes a pack's changes off the queue and keeps the pack until its ack. @param {PendingPack} pack */
  async packPlanned(pack) {
    this.#checkWritable();
    for (const key of pack.changeKeys) this.#outbox.delete(`${pack.room}/${key}`);
    this.#packs.set(`${pack.room}/${pack.hex}`, { ...pack, changeKeys: [...pack.changeKeys] });
  }

  /** The server holds the pack durably. */
  async acknowledgePack(room, hex) {
    this.#checkWritable();
    this.#packs.delete(`${room}/${hex}`);
  }

  /** Raises the room's watermark (never lowers it: another tab may have stored further). */
  async setWatermark(room, position) {
    this.#checkWritable();
    const watermark = Math.max(this.#watermarks.get(room) ?? 0, position);
    this.#watermarks.set(room, watermark);
    return watermark;
  }

  /** The held changes are merged: their marks go. @param {string} room @param {string[]} keys */
  async releaseHeld(room, keys) {
    this.#checkWritable();
    for (const key of keys) this.#held.delete(`${room}/${key}`);
  }

  /** Notes that a session of the room was live at `time` (never moved back). */
  async noteLive(room, time) {
    this.#checkWritable();
    const liveAt = Math.max(this.#liveAt.get(room) ?? -Infinity, time);
    this.#liveAt.set(room, liveAt);
    return liveAt;
  }

  /**
   * Keeps a room snapshot heard of, unless one of a later position is kept.
   * @param {string} room @param {import('./store-records.js').HeardSnapshot} snapshot
   */
  async hearSnapshot(room, snapshot) {
    this.#checkWritable();
    const kept = this.#heard.get(room);
    if (kept === undefined || kept.position < snapshot.position) this.#heard.set(room, { ...snapshot });
    return { .../** @type {import('./store-records.js').HeardSnapshot} */ (this.#heard.get(room)) };
  }

  /** @param {string} room @returns {Promise<AccessRecord | null>} */
  async loadAccess(room) {
    const record = this.#access.get(room);
    return record === undefined ? null : { ...record };
  }

  /** @param {AccessRecord} record */
  async saveAccess(record) {
    this.#checkWritable();
    this.#access.set(record.room, { ...record });
  }

  /**
   * @param {string} room @param {(held: AccessRecord | null) => AccessRecord | null} update
   * @returns {Promise<AccessRecord | null>}
   */
  async updateAccess(room, update) {
    this.#checkWritable();
    const held = this.#access.get(room);
    const next = update(held === undefined ? null : { ...held });
    if (next !== null) this.#access.set(room, { ...next });
    const kept = this.#access.get(room);
    return kept === undefined ? null : { ...kept };
  }

  /** @template T @param {string} room @param {() => Promise<T>} body @param {string} [turn] @returns {Promise<T>} */
  exclusiveAccess(room, body, turn = 'access') {
    return this.#turns.run(`${room}:${turn}`, body);
  }

  close() {}

  #lease(record) {
    const name = `${record.room}/${record.replica}`;
    if (this.#leases.has(name)) return null;
    this.#leases.add(name);
    let released = false;
    return {
      replica: record.replica,
      lastSeq: record.lastSeq,
      keys: record.keys,
      release: () => {
        if (released) return;
        released = true;
        this.#leases.delete(name);
      },
    };
  }

  /** The change records of a room. @param {string} room */
  #count(room) {
    let count = 0;
    for (const change of this.#changes.values()) if (change.room === room) count += 1;
    return count;
  }

  #checkWritable() {
    if (this.failWrites !== null) throw SyncError.storage('write', this.failWrites);
  }
}

/** @param {StoredChange} change */
function copyChange(change) {
  return { ...change, stamp: { ...change.stamp }, bytes: change.bytes.slice() };
}

/** @param {CutEntry[]} cut */
function copyCut(cut) {
  return cut.map((entry) => ({ ...entry, stamp: { ...entry.stamp } }));
}
