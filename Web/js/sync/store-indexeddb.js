// The page's store: IndexedDB, with the interface and rules of store-memory.js (see store-records.js).
//
// Timelines are leased with the Web Locks API, one lock per (database, room, replica): a reload gets the
// same timeline back (the previous page's lock went with it), while a second tab of the same room finds it
// held and takes, or creates, another. So two tabs never give out the same change id, and the seq check in
// `recordLocal`'s transaction catches any writer that slipped past the lease. Without Web Locks (very old
// browsers) every session creates a new timeline: more timelines, never a reused id.
//
// A room's access record is read and written in one readwrite transaction (`updateAccess`), which IndexedDB
// runs alone among the profile's transactions on that store, so no tab's write falls between another's read
// and write. A rotation holds the room's `…:access` lock from asking the server to keeping its answer
// (`exclusiveAccess`), so the server and the store see two tabs' rotations in the same order.
//
// Compaction (store-compaction.js) removes a room's changes and records how far it did in one readwrite
// transaction (`prune`), so a tab that dies midway leaves either the whole pass or none of it. What a room
// snapshot taken in place of packs stands for (`cover`), how far compaction left changes out (`pruned`) and
// how many change records it kept (`kept`) live in the room's record, beside its watermark: no new object
// store, so no new version. Passes take turns across tabs by the room's `…:compaction` lock.
//
// Each timeline's record keeps the Ed25519 key pair that owns it (`keys`, a CryptoKeyPair whose private half
// is unextractable). Records an earlier version made have no key: they are never leased again, since their
// packs could not be signed; a page gets a new, keyed timeline instead.

import { generateAuthorKey } from '../wire/author-key.js';
import { SyncError } from './errors.js';
import { newReplicaRecord } from './replica-key.js';
import { mergeCut } from './store-records.js';
import { Turns, tryLock, withLock } from './web-locks.js';

/** @typedef {import('./store-records.js').StoredChange} StoredChange */
/** @typedef {import('./store-records.js').PendingPack} PendingPack */
/** @typedef {import('./store-records.js').AsideItem} AsideItem */
/** @typedef {import('./store-records.js').ReplicaLease} ReplicaLease */
/** @typedef {import('./store-records.js').AccessRecord} AccessRecord */
/** @typedef {import('./store-records.js').CutEntry} CutEntry */

/** Version 2 added the `held` object store; 3 the `access` one. */
const VERSION = 3;

/**
 * Opens (creating if needed) the page's store.
 * @param {{
 *   name?: string, indexedDB?: IDBFactory, locks?: LockManager | null, generateKey?: () => Promise<CryptoKeyPair>
 * }} [options] `generateKey` makes a new timeline's key pair (tests inject fixed ones)
 * @returns {Promise<IndexedDBStore>}
 * @throws {SyncError} `storage` when the browser refuses IndexedDB (private modes of some browsers)
 */
export async function openIndexedDBStore({
  name = 'inkwell',
  indexedDB = globalThis.indexedDB,
  locks = globalThis.navigator?.locks ?? null,
  generateKey = generateAuthorKey,
} = {}) {
  if (indexedDB === undefined) throw SyncError.storage('open', new Error('IndexedDB is not available'));
  const request = indexedDB.open(name, VERSION);
  request.onupgradeneeded = (event) => upgrade(request.result, event.oldVersion);
  try {
    return new IndexedDBStore(await settle(request), name, locks, generateKey);
  } catch (error) {
    throw SyncError.storage('open', error);
  }
}

/**
 * Brings a database of `oldVersion` (0 for a new one) to this version: each version adds object stores
 * and indexes, never edits those of an earlier one.
 * @param {IDBDatabase} db @param {number} oldVersion
 */
function upgrade(db, oldVersion) {
  if (oldVersion < 1) {
    db.createObjectStore('changes', { keyPath: 'id' }).createIndex('room', 'room');
    db.createObjectStore('outbox', { keyPath: 'id' }).createIndex('room', 'room');
    db.createObjectStore('packs', { keyPath: 'id' }).createIndex('room', 'room');
    db.createObjectStore('aside', { keyPath: 'id', autoIncrement: true }).createIndex('room', 'room');
    db.createObjectStore('replicas', { keyPath: 'id' }).createIndex('room', 'room');
    db.createObjectStore('rooms', { keyPath: 'room' });
  }
  if (oldVersion < 2) {
    // Received changes held for review: `{id: room/key, room, key}`; the change itself is in `changes`.
    db.createObjectStore('held', { keyPath: 'id' }).createIndex('room', 'room');
  }
  if (oldVersion < 3) {
    // What this device holds to open each room (its capabilities and key), by room: kept with the board's
    // changes, so clearing the site's data forgets both together.
    db.createObjectStore('access', { keyPath: 'room' });
  }
}

export class IndexedDBStore {
  #db;
  #name;
  #locks;
  #generateKey;
  /** A page's own turns at rooms' access and compaction, where there are no Web Locks. */
  #turns = new Turns();

  /**
   * @param {IDBDatabase} db @param {string} name @param {LockManager | null} locks
   * @param {() => Promise<CryptoKeyPair>} generateKey
   */
  constructor(db, name, locks, generateKey) {
    this.#db = db;
    this.#name = name;
    this.#locks = locks;
    this.#generateKey = generateKey;
    // Another tab upgrading the schema: step aside rather than block it.
    db.onversionchange = () => db.close();
  }

  /** @param {string} room @returns {Promise<ReplicaLease>} */
  async claimReplica(room) {
    if (this.#locks !== null) {
      const records = await this.#run('replicas', 'readonly', (stores) => all(stores.replicas.index('room'), room));
      records.sort((a, b) => a.created - b.created);
      for (const record of records) {
        if (!record.keys) continue;
        const lease = await this.#lease(record);
        if (lease !== null) return lease;
      }
    }
    // Made before the transaction: a transaction ends at the first await that is not its own.
    const { replica, keys } = await newReplicaRecord(this.#generateKey);
    const record = { id: `${room}/${replica}`, room, replica, lastSeq: 0, created: Date.now(), keys };
    // A fresh key's id: no other page can hold its lock yet.
    const lease = (await this.#lease(record)) ?? { replica, lastSeq: 0, keys, release: () => {} };
    await this.#run('replicas', 'readwrite', (stores) => request(stores.replicas.add(record)));
    return lease;
  }

  /** @param {string} room @param {string} replica @returns {Promise<ReplicaLease | null>} */
  async tryLease(room, replica) {
    const record = await this.#run('replicas', 'readonly', (stores) => request(stores.replicas.get(`${room}/${replica}`)));
    // A timeline without a key cannot sign its packs: what it left queued stays here, unpushed.
    if (record === undefined || !record.keys) return null;
    // Without Web Locks a closed tab's timeline cannot be told from a live one's; pushing its queue twice
    // costs bytes, never correctness (the server and every replica keep a change once).
    if (this.#locks === null) return { replica, lastSeq: record.lastSeq, keys: record.keys, release: () => {} };
    return this.#lease(record);
  }

  /** @param {string} room */
  async loadRoom(room) {
    const names = ['changes', 'outbox', 'packs', 'aside', 'replicas', 'rooms', 'held'];
    return this.#run(names, 'readonly', async (stores) => {
      const [changes, outbox, packs, aside, replicas, roomRecord, held] = await Promise.all([
        all(stores.changes.index('room'), room),
        all(stores.outbox.index('room'), room),
        all(stores.packs.index('room'), room),
        all(stores.aside.index('room'), room),
        all(stores.replicas.index('room'), room),
        request(stores.rooms.get(room)),
        all(stores.held.index('room'), room),
      ]);
      return {
        changes: changes.map(withoutId),
        outbox: outbox.map(({ key, replica, seq }) => ({ key, replica, seq })),
        packs: packs.map(withoutId),
        aside,
        watermark: roomRecord?.watermark ?? 0,
        replicas: replicas.map(({ room, replica, lastSeq }) => ({ room, replica, lastSeq })),
        held: held.map((record) => record.key),
        liveAt: roomRecord?.liveAt ?? null,
        heard: roomRecord?.heard ?? null,
        cover: roomRecord?.cover ?? [],
        pruned: roomRecord?.pruned ?? [],
      };
    });
  }

  /** @param {string} room @returns {Promise<import('./store-records.js').ReplicaRecord[]>} */
  async loadReplicas(room) {
    const records = await this.#run('replicas', 'readonly', (stores) => all(stores.replicas.index('room'), room));
    return records.map(({ replica, lastSeq }) => ({ room, replica, lastSeq }));
  }

  /** @param {string} room @returns {Promise<import('./store-records.js').Standing>} */
  async loadStanding(room) {
    return this.#run(['changes', 'rooms'], 'readonly', async (stores) => {
      const [record, changes] = await Promise.all([request(stores.rooms.get(room)), request(stores.changes.index('room').count(room))]);
      return { cover: record?.cover ?? [], pruned: record?.pruned ?? [], changes, kept: record?.kept ?? 0 };
    });
  }

  /** Kept in the room's record. @param {string} room @param {CutEntry[]} cut */
  async standFor(room, cut) {
    return this.#run('rooms', 'readwrite', async (stores) => {
      const record = (await request(stores.rooms.get(room))) ?? { room, watermark: 0 };
      record.cover = mergeCut(record.cover ?? [], cut);
      await request(stores.rooms.put(record));
      return record.cover;
    });
  }

  /**
   * One transaction: a tab that dies midway leaves the whole pass or none of it.
   * @param {string} room @param {string[]} keys @param {CutEntry[]} through @param {number} [outside]
   * @returns {Promise<string[]>} the keys removed
   */
  async prune(room, keys, through, outside = 0) {
    return this.#run(['changes', 'outbox', 'packs', 'held', 'rooms'], 'readwrite', async (stores) => {
      const packs = await all(stores.packs.index('room'), room);
      const pending = new Set(packs.flatMap((pack) => pack.changeKeys));
      const found = await Promise.all(
        keys.map((key) => {
          const id = `${room}/${key}`;
          return Promise.all([request(stores.changes.getKey(id)), request(stores.outbox.getKey(id)), request(stores.held.getKey(id))]);
        }),
      );
      const removed = [];
      keys.forEach((key, index) => {
        const [stored, queued, held] = found[index];
        if (stored === undefined || queued !== undefined || held !== undefined || pending.has(key)) return;
        stores.changes.delete(`${room}/${key}`);
        removed.push(key);
      });
      // Counted after the deletes: requests of one transaction run in order.
      const [record, kept] = await Promise.all([request(stores.rooms.get(room)), request(stores.changes.index('room').count(room))]);
      const next = record ?? { room, watermark: 0 };
      next.pruned = mergeCut(next.pruned ?? [], through);
      next.kept = Math.max(kept - outside, 0);
      await request(stores.rooms.put(next));
      return removed;
    });
  }

  /** @param {string} room @returns {Promise<string[]>} */
  async loadKeys(room) {
    const ids = await this.#run('changes', 'readonly', ({ changes }) => {
      return request(changes.index('room').getAllKeys(room));
    });
    return ids.map((/** @type {string} */ id) => id.slice(room.length + 1));
  }

  /** @param {string} room */
  async loadAside(room) {
    return this.#run('aside', 'readonly', (stores) => all(stores.aside.index('room'), room));
  }

  /** @param {StoredChange} change */
  async recordLocal(change) {
    await this.#run(['changes', 'outbox', 'replicas'], 'readwrite', async (stores) => {
      const id = `${change.room}/${change.replica}`;
      const record = await request(stores.replicas.get(id));
      if (record === undefined || record.lastSeq >= change.seq) throw SyncError.seqConflict();
      record.lastSeq = change.seq;
      stores.replicas.put(record);
      stores.changes.put({ ...change, id: `${change.room}/${change.key}` });
      await request(
        stores.outbox.put({
          id: `${change.room}/${change.key}`,
          room: change.room,
          key: change.key,
          replica: change.replica,
          seq: change.seq,
        }),
      );
    });
  }

  /**
   * @param {string} room @param {StoredChange[]} changes @param {AsideItem[]} [aside]
   * @param {string[]} [hold] keys to mark as held, if their changes are new here
   */
  async storeRemote(room, changes, aside = [], hold = []) {
    return this.#run(['changes', 'aside', 'held'], 'readwrite', async (stores) => {
      const inserted = await putRemote(stores, room, changes, aside);
      const held = new Set(hold);
      for (const key of inserted) if (held.has(key)) stores.held.put({ id: `${room}/${key}`, room, key });
      return inserted;
    });
  }

  /** @param {string} room @param {number} id @param {StoredChange[]} changes */
  async promoteAside(room, id, changes) {
    return this.replaceAside(room, id, changes, []);
  }

  /** @param {string} room @param {number} id @param {StoredChange[]} changes @param {AsideItem[]} aside */
  async replaceAside(room, id, changes, aside) {
    return this.#run(['changes', 'aside'], 'readwrite', async (stores) => {
      const inserted = await putRemote(stores, room, changes, aside);
      await request(stores.aside.delete(id));
      return inserted;
    });
  }

  /** @param {string} room @param {string[]} keys @returns {Promise<(Uint8Array | undefined)[]>} */
  async loadChanges(room, keys) {
    return this.#run('changes', 'readonly', (stores) =>
      Promise.all(keys.map(async (key) => (await request(stores.changes.get(`${room}/${key}`)))?.bytes)),
    );
  }

  /** @param {string} room @param {string[]} keys @returns {Promise<StoredChange[]>} */
  async requeue(room, keys) {
    return this.#run(['changes', 'outbox'], 'readwrite', async (stores) => {
      const queued = [];
      for (const key of keys) {
        const id = `${room}/${key}`;
        const [change, waiting] = await Promise.all([request(stores.changes.get(id)), request(stores.outbox.getKey(id))]);
        if (change === undefined || waiting !== undefined) continue;
        stores.outbox.put({ id, room, key, replica: change.replica, seq: change.seq });
        queued.push(withoutId(change));
      }
      return queued;
    });
  }

  /** @param {PendingPack} pack */
  async packPlanned(pack) {
    await this.#run(['outbox', 'packs'], 'readwrite', async (stores) => {
      for (const key of pack.changeKeys) stores.outbox.delete(`${pack.room}/${key}`);
      await request(stores.packs.put({ ...pack, id: `${pack.room}/${pack.hex}` }));
    });
  }

  /** @param {string} room @param {string} hex */
  async acknowledgePack(room, hex) {
    await this.#run('packs', 'readwrite', (stores) => request(stores.packs.delete(`${room}/${hex}`)));
  }

  /** @param {string} room @param {number} position */
  async setWatermark(room, position) {
    return this.#run('rooms', 'readwrite', async (stores) => {
      const record = (await request(stores.rooms.get(room))) ?? { room, watermark: 0 };
      // Never lower it: another tab may have stored further.
      record.watermark = Math.max(record.watermark, position);
      await request(stores.rooms.put(record));
      return record.watermark;
    });
  }

  /** @param {string} room @param {string[]} keys */
  async releaseHeld(room, keys) {
    await this.#run('held', 'readwrite', async (stores) => {
      for (const key of keys) stores.held.delete(`${room}/${key}`);
    });
  }

  /** @param {string} room @param {number} time */
  async noteLive(room, time) {
    return this.#run('rooms', 'readwrite', async (stores) => {
      const record = (await request(stores.rooms.get(room))) ?? { room, watermark: 0 };
      // Never moved back: another tab may have been live later.
      record.liveAt = Math.max(record.liveAt ?? -Infinity, time);
      await request(stores.rooms.put(record));
      return record.liveAt;
    });
  }

  /**
   * Kept in the room's record (as its watermark is), which needs no new object store.
   * @param {string} room @param {import('./store-records.js').HeardSnapshot} snapshot
   */
  async hearSnapshot(room, snapshot) {
    return this.#run('rooms', 'readwrite', async (stores) => {
      const record = (await request(stores.rooms.get(room))) ?? { room, watermark: 0 };
      // Never an older one: another tab may have heard of a newer one.
      if ((record.heard?.position ?? 0) < snapshot.position) {
        record.heard = { position: snapshot.position, changes: snapshot.changes, held: snapshot.held };
        await request(stores.rooms.put(record));
      }
      return { ...record.heard };
    });
  }

  /** @param {string} room @returns {Promise<AccessRecord | null>} */
  async loadAccess(room) {
    return (await this.#run('access', 'readonly', (stores) => request(stores.access.get(room)))) ?? null;
  }

  /** @param {AccessRecord} record */
  async saveAccess(record) {
    await this.#run('access', 'readwrite', (stores) => request(stores.access.put({ ...record })));
  }

  /**
   * @param {string} room @param {(held: AccessRecord | null) => AccessRecord | null} update
   * @returns {Promise<AccessRecord | null>}
   */
  async updateAccess(room, update) {
    return this.#run('access', 'readwrite', async (stores) => {
      const held = (await request(stores.access.get(room))) ?? null;
      const next = update(held);
      if (next === null) return held;
      await request(stores.access.put({ ...next }));
      return { ...next };
    });
  }

  /** @template T @param {string} room @param {() => Promise<T>} body @param {string} [turn] @returns {Promise<T>} */
  exclusiveAccess(room, body, turn = 'access') {
    const name = `inkwell:${this.#name}:${room}:${turn}`;
    return this.#locks === null ? this.#turns.run(name, body) : withLock(this.#locks, name, body);
  }

  close() {
    this.#db.close();
  }

  async #lease(record) {
    if (this.#locks === null) return null;
    const release = await tryLock(this.#locks, `inkwell:${this.#name}:${record.room}:${record.replica}`);
    return release === null ? null : { replica: record.replica, lastSeq: record.lastSeq, keys: record.keys, release };
  }

  /**
   * Runs `body` in one transaction and resolves with its result once the transaction has committed; if
   * `body` throws, the transaction is aborted and nothing it wrote is kept.
   * @template T
   * @param {string | string[]} names
   * @param {IDBTransactionMode} mode
   * @param {(stores: Record<string, IDBObjectStore>) => Promise<T> | T} body
   * @returns {Promise<T>}
   */
  async #run(names, mode, body) {
    const list = Array.isArray(names) ? names : [names];
    let transaction;
    try {
      transaction = this.#db.transaction(list, mode);
    } catch (error) {
      throw SyncError.storage(mode === 'readonly' ? 'read' : 'write', error);
    }
    const done = new Promise((resolve, reject) => {
      transaction.oncomplete = () => resolve(undefined);
      transaction.onabort = () => reject(transaction.error ?? new Error('transaction aborted'));
      transaction.onerror = (event) => event.preventDefault?.();
    });
    /** @type {Record<string, IDBObjectStore>} */
    const stores = {};
    for (const name of list) stores[name] = transaction.objectStore(name);
    let result;
    try {
      result = await body(stores);
    } catch (error) {
      try {
        transaction.abort();
      } catch {
        // Already finished: nothing left to undo.
      }
      done.catch(() => {});
      throw error instanceof SyncError ? error : SyncError.storage('write', error);
    }
    try {
      await done;
    } catch (error) {
      throw SyncError.storage(mode === 'readonly' ? 'read' : 'write', error);
    }
    return result;
  }
}

/** Puts the changes that are not stored yet, and the aside items; resolves with the keys put. */
async function putRemote(stores, room, changes, aside) {
  const present = await Promise.all(changes.map((change) => request(stores.changes.getKey(`${room}/${change.key}`))));
  const inserted = [];
  changes.forEach((change, index) => {
    if (present[index] !== undefined) return;
    stores.changes.put({ ...change, id: `${room}/${change.key}` });
    inserted.push(change.key);
  });
  for (const item of aside) stores.aside.add({ ...item });
  return inserted;
}

/**
 * @param {IDBRequest} req
 * @returns {Promise<any>}
 */
function request(req) {
  return settle(req);
}

/** @param {IDBIndex} index @param {string} room */
function all(index, room) {
  return settle(index.getAll(room));
}

/** @param {IDBRequest} req */
function settle(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** @template {{id?: unknown}} T @param {T} record */
function withoutId(record) {
  const { id: _, ...rest } = record;
  return rest;
}
