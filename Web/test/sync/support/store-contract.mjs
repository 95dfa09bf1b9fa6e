// The rules every store keeps (store-records.js), as cases run against the memory store in node and
// against IndexedDB in a real browser (store-indexeddb.test.mjs). Plain ES, no node imports: the
// browser page imports it too.

import { replicaOfKey } from '../../../js/wire/author-key.js';

const A = 'aa'.repeat(16);

/** Signs a few bytes with a lease's key; the signature, as an array. */
async function signature(lease) {
  return [...new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, lease.keys.privateKey, new Uint8Array([1, 2, 3])))];
}

/** The replica a lease's public key owns. */
async function ownedReplica(lease) {
  return replicaOfKey(new Uint8Array(await crypto.subtle.exportKey('raw', lease.keys.publicKey)));
}
const B = 'bb'.repeat(16);

/** A stored change record. */
export function record(room, replica, seq, bytes = [seq]) {
  return {
    key: `${replica}-${seq}`,
    room,
    board: 'main',
    replica,
    seq,
    stamp: { wall: 1_000 + seq, counter: 0 },
    schemaVersion: 1,
    bytes: new Uint8Array(bytes),
  };
}

/**
 * @typedef {{
 *   equal(a: unknown, b: unknown, message?: string): void,
 *   deepEqual(a: unknown, b: unknown, message?: string): void,
 *   ok(value: unknown, message?: string): void,
 *   rejects(promise: Promise<unknown>, check: (error: any) => boolean, message?: string): Promise<void>
 * }} Assert
 * @typedef {{name: string, run: (makeStore: () => Promise<any>, assert: Assert) => Promise<void>}} StoreCase
 */

/** @type {StoreCase[]} */
export const storeCases = [
  {
    name: 'a released timeline is claimed again; a held one is not',
    async run(makeStore, assert) {
      const store = await makeStore();
      const first = await store.claimReplica('r');
      const second = await store.claimReplica('r');
      assert.ok(first.replica !== second.replica, 'two live sessions get two timelines');
      assert.equal(await store.tryLease('r', first.replica), null, 'a held timeline cannot be leased');
      first.release();
      const again = await store.claimReplica('r');
      assert.equal(again.replica, first.replica, 'a reload gets its timeline back');
      second.release();
      const adopted = await store.tryLease('r', second.replica);
      assert.ok(adopted !== null, 'a released timeline can be leased');
      adopted.release();
      again.release();
      const other = await store.claimReplica('s');
      assert.ok(other.replica !== first.replica, 'each room has its own timelines');
      other.release();
      store.close();
    },
  },
  {
    name: 'each timeline is owned by a key of its own: its id derived from the public key, the private key unextractable and kept',
    async run(makeStore, assert) {
      const store = await makeStore();
      const first = await store.claimReplica('r');
      const second = await store.claimReplica('r');
      assert.equal(await ownedReplica(first), first.replica, 'the replica is derived from the key');
      assert.equal(await ownedReplica(second), second.replica);
      assert.equal(first.keys.privateKey.extractable, false, 'the private key cannot leave');
      const signed = await signature(first);
      assert.equal(signed.length, 64);
      first.release();
      const again = await store.claimReplica('r');
      assert.equal(again.replica, first.replica);
      assert.deepEqual(await signature(again), signed, 'the same key after a reload (Ed25519 is deterministic)');
      second.release();
      const adopted = await store.tryLease('r', second.replica);
      assert.equal(await ownedReplica(adopted), second.replica, 'a timeline taken over comes with its key');
      adopted.release();
      again.release();
      store.close();
    },
  },
  {
    name: 'a local change is stored and queued in one transaction, and a seq is never given twice',
    async run(makeStore, assert) {
      const store = await makeStore();
      const lease = await store.claimReplica('r');
      const replica = lease.replica;
      await store.recordLocal(record('r', replica, 1));
      await store.recordLocal(record('r', replica, 2));
      await assert.rejects(store.recordLocal(record('r', replica, 2, [9])), (error) => error.code === 'seqConflict');
      await assert.rejects(store.recordLocal(record('r', B, 1)), (error) => error.code === 'seqConflict', 'an unknown timeline');
      const room = await store.loadRoom('r');
      assert.deepEqual(room.changes.map((change) => [change.key, [...change.bytes]]).sort(), [
        [`${replica}-1`, [1]],
        [`${replica}-2`, [2]],
      ]);
      assert.deepEqual(room.outbox.map((entry) => entry.seq).sort(), [1, 2]);
      assert.deepEqual(room.replicas.map((r) => [r.replica, r.lastSeq]), [[replica, 2]]);
      lease.release();
      const again = await store.claimReplica('r');
      assert.equal(again.lastSeq, 2, 'the lease says where the timeline stands');
      again.release();
      store.close();
    },
  },
  {
    name: 'received changes are kept once, items aside until promoted',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.deepEqual(await store.storeRemote('r', [record('r', A, 1), record('r', A, 2)], []), [`${A}-1`, `${A}-2`]);
      assert.deepEqual(
        await store.storeRemote('r', [record('r', A, 2), record('r', A, 3)], [{ room: 'r', kind: 'change', schemaVersion: 2, bytes: new Uint8Array([7]) }]),
        [`${A}-3`],
      );
      let room = await store.loadRoom('r');
      assert.equal(room.changes.length, 3);
      assert.equal(room.outbox.length, 0, 'received changes are not queued');
      assert.equal(room.aside.length, 1);
      assert.deepEqual([...room.aside[0].bytes], [7]);
      assert.deepEqual(await store.promoteAside('r', room.aside[0].id, [record('r', A, 4)]), [`${A}-4`]);
      room = await store.loadRoom('r');
      assert.equal(room.aside.length, 0);
      assert.equal(room.changes.length, 4);
      assert.equal((await store.loadRoom('other')).changes.length, 0, 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'items aside keep their reason, and are read again with their ids',
    async run(makeStore, assert) {
      const store = await makeStore();
      const ahead = { room: 'r', kind: 'change', schemaVersion: 1, bytes: new Uint8Array([1]), reason: 'stampAhead' };
      const forged = { room: 'r', kind: 'pack', schemaVersion: 1, bytes: new Uint8Array([2]), reason: 'forgedAuthor' };
      const future = { room: 'r', kind: 'pack', schemaVersion: 2, bytes: new Uint8Array([3]) };
      await store.storeRemote('r', [], [ahead, forged, future]);
      await store.storeRemote('s', [], [{ ...forged, room: 's' }]);
      const items = await store.loadAside('r');
      assert.deepEqual(items.map((item) => [item.reason, [...item.bytes]]).sort(), [['forgedAuthor', [2]], ['stampAhead', [1]], [undefined, [3]]].sort());
      assert.deepEqual(items.map((item) => item.id).sort(), (await store.loadRoom('r')).aside.map((item) => item.id).sort());
      const waiting = items.find((item) => item.reason === 'stampAhead');
      await store.promoteAside('r', waiting.id, [record('r', A, 1)]);
      assert.equal((await store.loadAside('r')).length, 2);
      assert.equal((await store.loadAside('s')).length, 1, 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'an item aside is replaced by its changes and what stays aside of it, in one write',
    async run(makeStore, assert) {
      const store = await makeStore();
      const pack = { room: 'r', kind: 'pack', schemaVersion: 1, bytes: new Uint8Array([9]) };
      await store.storeRemote('r', [record('r', A, 1)], [pack]);
      const [item] = await store.loadAside('r');
      const ahead = { room: 'r', kind: 'change', schemaVersion: 1, bytes: new Uint8Array([4]), reason: 'stampAhead' };
      assert.deepEqual(await store.replaceAside('r', item.id, [record('r', A, 1), record('r', A, 2)], [ahead]), [`${A}-2`]);
      const items = await store.loadAside('r');
      assert.deepEqual(items.map((kept) => [kept.kind, kept.reason, [...kept.bytes]]), [['change', 'stampAhead', [4]]]);
      assert.equal((await store.loadRoom('r')).changes.length, 2);
      // Refused now: the same bytes, kept with the reason.
      await store.replaceAside('r', items[0].id, [], [{ ...pack, reason: 'tampered' }]);
      assert.deepEqual((await store.loadAside('r')).map((kept) => [kept.kind, kept.reason]), [['pack', 'tampered']]);
      store.close();
    },
  },
  {
    name: 'stored changes are read by key, and queued again only when stored and not queued',
    async run(makeStore, assert) {
      const store = await makeStore();
      const lease = await store.claimReplica('r');
      const mine = lease.replica;
      for (const seq of [1, 2]) await store.recordLocal(record('r', mine, seq, [seq, 7]));
      await store.storeRemote('r', [record('r', A, 1, [5])], []);
      const read = await store.loadChanges('r', [`${mine}-2`, `${A}-1`, `${A}-2`]);
      assert.deepEqual(read.map((bytes) => (bytes === undefined ? null : [...bytes])), [[2, 7], [5], null]);
      assert.deepEqual(await store.loadChanges('s', [`${A}-1`]), [undefined], 'rooms are apart');
      await store.packPlanned({ hex: 'ee'.repeat(32), room: 'r', replica: mine, changeKeys: [`${mine}-1`, `${mine}-2`], bytes: new Uint8Array([1]) });
      await store.acknowledgePack('r', 'ee'.repeat(32));
      assert.deepEqual((await store.loadRoom('r')).outbox, []);
      const queued = await store.requeue('r', [`${mine}-1`, `${mine}-3`]);
      assert.deepEqual(queued.map((change) => [change.key, [...change.bytes]]), [[`${mine}-1`, [1, 7]]]);
      assert.deepEqual(await store.requeue('r', [`${mine}-1`]), [], 'queued already');
      assert.deepEqual((await store.loadRoom('r')).outbox.map((entry) => entry.key), [`${mine}-1`]);
      lease.release();
      store.close();
    },
  },
  {
    name: 'a planned pack takes its changes off the queue until its ack',
    async run(makeStore, assert) {
      const store = await makeStore();
      const lease = await store.claimReplica('r');
      for (const seq of [1, 2, 3]) await store.recordLocal(record('r', lease.replica, seq));
      const pack = { hex: 'ff'.repeat(32), room: 'r', replica: lease.replica, changeKeys: [`${lease.replica}-1`, `${lease.replica}-2`], bytes: new Uint8Array([1, 2]) };
      await store.packPlanned(pack);
      let room = await store.loadRoom('r');
      assert.deepEqual(room.outbox.map((entry) => entry.seq), [3]);
      assert.equal(room.packs.length, 1);
      assert.deepEqual(room.packs[0].changeKeys, pack.changeKeys);
      assert.deepEqual([...room.packs[0].bytes], [1, 2], 'kept byte for byte');
      await store.acknowledgePack('r', pack.hex);
      room = await store.loadRoom('r');
      assert.equal(room.packs.length, 0);
      assert.equal(room.changes.length, 3, 'acknowledged changes stay in the replica');
      lease.release();
      store.close();
    },
  },
  {
    name: 'received changes are marked held only when new here, in the same write, until released',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.deepEqual((await store.loadRoom('r')).held, [], 'none at first');
      await store.storeRemote('r', [record('r', A, 1)], []);
      const inserted = await store.storeRemote('r', [record('r', A, 1), record('r', A, 2), record('r', B, 1)], [], [`${A}-1`, `${A}-2`]);
      assert.deepEqual(inserted, [`${A}-2`, `${B}-1`]);
      let room = await store.loadRoom('r');
      assert.deepEqual(room.held, [`${A}-2`], 'a change stored before keeps its place on the board');
      assert.equal(room.changes.length, 3, 'held changes are stored like any other');
      assert.deepEqual((await store.loadRoom('s')).held, [], 'rooms are apart');
      await store.storeRemote('s', [record('s', A, 2)], [], [`${A}-2`]);
      await store.releaseHeld('r', [`${A}-2`]);
      room = await store.loadRoom('r');
      assert.deepEqual(room.held, []);
      assert.equal(room.changes.length, 3, 'released, not removed');
      assert.deepEqual((await store.loadRoom('s')).held, [`${A}-2`], 'the other room keeps its own');
      store.close();
    },
  },
  {
    name: 'the time a room was last live only moves forward, and leaves the watermark alone',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.equal((await store.loadRoom('r')).liveAt, null, 'never live');
      await store.setWatermark('r', 4);
      assert.equal(await store.noteLive('r', 2_000), 2_000);
      assert.equal(await store.noteLive('r', 1_000), 2_000, 'another tab was live later');
      await store.setWatermark('r', 5);
      const room = await store.loadRoom('r');
      assert.equal(room.liveAt, 2_000);
      assert.equal(room.watermark, 5);
      assert.equal((await store.loadRoom('s')).liveAt, null, 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'the newest room snapshot heard of is kept, never replaced by an older one, and leaves the watermark alone',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.equal((await store.loadRoom('r')).heard, null, 'none heard of yet');
      assert.deepEqual(await store.hearSnapshot('r', { position: 9, changes: 120, held: 40 }), { position: 9, changes: 120, held: 40 });
      await store.setWatermark('r', 12);
      const older = await store.hearSnapshot('r', { position: 7, changes: 500, held: 500 });
      assert.deepEqual(older, { position: 9, changes: 120, held: 40 }, 'another tab heard of a newer one');
      assert.deepEqual(await store.hearSnapshot('r', { position: 15, changes: 300, held: 60 }), { position: 15, changes: 300, held: 60 });
      const room = await store.loadRoom('r');
      assert.deepEqual(room.heard, { position: 15, changes: 300, held: 60 });
      assert.equal(room.watermark, 12);
      assert.equal((await store.loadRoom('s')).heard, null, 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'what room snapshots taken stand for is merged into the room’s cover: each timeline as far as any goes',
    async run(makeStore, assert) {
      const store = await makeStore();
      const at = (wall) => ({ wall, counter: 0 });
      assert.deepEqual((await store.loadRoom('r')).cover, [], 'none at first');
      assert.deepEqual(await store.standFor('r', [{ replica: A, seq: 5, stamp: at(50) }]), [{ replica: A, seq: 5, stamp: at(50) }]);
      const kept = await store.standFor('r', [
        { replica: A, seq: 3, stamp: at(30) },
        { replica: B, seq: 2, stamp: at(20) },
      ]);
      assert.deepEqual(kept.sort((x, y) => x.replica.localeCompare(y.replica)), [
        { replica: A, seq: 5, stamp: at(50) },
        { replica: B, seq: 2, stamp: at(20) },
      ], 'never moved back');
      await store.standFor('r', [{ replica: A, seq: 7, stamp: at(40) }]);
      const room = await store.loadRoom('r');
      assert.deepEqual(room.cover.find((entry) => entry.replica === A), { replica: A, seq: 7, stamp: at(50) }, 'the latest stamp known');
      assert.deepEqual((await store.loadStanding('r')).cover.length, 2);
      assert.deepEqual((await store.loadRoom('s')).cover, [], 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'a pass removes the stored changes asked for but those queued, in a pack waiting for its ack or held, and keeps its cut and count',
    async run(makeStore, assert) {
      const store = await makeStore();
      const lease = await store.claimReplica('r');
      const mine = lease.replica;
      for (const seq of [1, 2, 3, 4]) await store.recordLocal(record('r', mine, seq));
      const acked = { hex: 'aa'.repeat(32), room: 'r', replica: mine, changeKeys: [`${mine}-1`, `${mine}-2`], bytes: new Uint8Array([1]) };
      await store.packPlanned(acked);
      await store.acknowledgePack('r', acked.hex);
      await store.packPlanned({ hex: 'bb'.repeat(32), room: 'r', replica: mine, changeKeys: [`${mine}-3`], bytes: new Uint8Array([2]) });
      await store.storeRemote('r', [record('r', A, 1), record('r', A, 2), record('r', A, 3)], []);
      await store.storeRemote('r', [record('r', B, 1)], [], [`${B}-1`]);
      await store.storeRemote('s', [record('s', A, 1)], []);
      assert.deepEqual(await store.loadStanding('r'), { cover: [], pruned: [], changes: 8, kept: 0 }, 'none yet');
      const at = (wall) => ({ wall, counter: 0 });
      const through = [
        { replica: A, seq: 2, stamp: at(1_002) },
        { replica: mine, seq: 2, stamp: at(1_002) },
      ];
      const asked = [`${mine}-1`, `${mine}-3`, `${mine}-4`, `${A}-1`, `${A}-2`, `${B}-1`, `${A}-9`];
      const removed = await store.prune('r', asked, through);
      assert.deepEqual(removed.sort(), [`${mine}-1`, `${A}-1`, `${A}-2`].sort(), 'in flight, queued, held and absent ones stay');
      const room = await store.loadRoom('r');
      assert.deepEqual(room.changes.map((change) => change.key).sort(), [`${mine}-2`, `${mine}-3`, `${mine}-4`, `${A}-3`, `${B}-1`].sort());
      const byReplica = (cut) => [...cut].sort((x, y) => x.replica.localeCompare(y.replica));
      assert.deepEqual(byReplica(room.pruned), byReplica(through));
      assert.deepEqual(room.replicas.map((r) => r.lastSeq), [4], 'the timeline still says where it stands');
      assert.deepEqual(room.outbox.map((entry) => entry.key), [`${mine}-4`]);
      assert.equal(room.packs.length, 1);
      const counted = await store.loadStanding('r');
      assert.deepEqual({ ...counted, pruned: byReplica(counted.pruned) }, { cover: [], pruned: byReplica(through), changes: 5, kept: 5 });
      assert.equal((await store.loadRoom('s')).changes.length, 1, 'rooms are apart');
      // A change removed arrives again: stored again, as any change not held.
      assert.deepEqual(await store.storeRemote('r', [record('r', A, 1)], []), [`${A}-1`]);
      // Another pass, asked to remove nothing, only counts (less the records it could not consider), and
      // keeps the furthest cut.
      assert.deepEqual(await store.prune('r', [], [{ replica: A, seq: 1, stamp: at(1_001) }], 2), []);
      const standing = await store.loadStanding('r');
      assert.deepEqual([standing.changes, standing.kept], [6, 4]);
      assert.deepEqual(standing.pruned.find((entry) => entry.replica === A), through[0]);
      lease.release();
      store.close();
    },
  },
  {
    name: 'a room’s timelines are listed with their last seqs',
    async run(makeStore, assert) {
      const store = await makeStore();
      const lease = await store.claimReplica('r');
      for (const seq of [1, 2]) await store.recordLocal(record('r', lease.replica, seq));
      assert.deepEqual(await store.loadReplicas('r'), [{ room: 'r', replica: lease.replica, lastSeq: 2 }]);
      assert.deepEqual(await store.loadReplicas('s'), [], 'rooms are apart');
      lease.release();
      store.close();
    },
  },
  {
    name: 'the watermark only rises',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.equal((await store.loadRoom('r')).watermark, 0);
      assert.equal(await store.setWatermark('r', 5), 5);
      assert.equal(await store.setWatermark('r', 3), 5, 'another tab stored further');
      assert.equal((await store.loadRoom('r')).watermark, 5);
      store.close();
    },
  },
  {
    name: 'a room’s access record is kept whole, replaced whole, and rooms are apart',
    async run(makeStore, assert) {
      const store = await makeStore();
      assert.equal(await store.loadAccess('r'), null, 'none kept: an open room');
      const record = { room: 'r', admin: `a${'A'.repeat(43)}`, edit: `e${'B'.repeat(43)}`, view: `v${'C'.repeat(43)}`, key: 'D'.repeat(43) };
      await store.saveAccess(record);
      assert.deepEqual(await store.loadAccess('r'), record);
      await store.saveAccess({ ...record, edit: `e${'E'.repeat(43)}` });
      assert.equal((await store.loadAccess('r')).edit, `e${'E'.repeat(43)}`, 'a replaced link');
      assert.equal(await store.loadAccess('s'), null, 'rooms are apart');
      store.close();
    },
  },
  {
    name: 'updates of a room’s access, many at once, each read what the one before wrote',
    async run(makeStore, assert) {
      const store = await makeStore();
      const record = { room: 'r', admin: null, edit: 'e', view: null, key: null };
      assert.equal(await store.updateAccess('r', () => null), null, 'nothing held, nothing kept');
      assert.deepEqual(await store.updateAccess('r', (held) => (held === null ? record : null)), record);
      const digits = '0123456789abcdefghij';
      const kept = await Promise.all([...digits].map((digit) => store.updateAccess('r', (held) => ({ ...held, edit: held.edit + digit }))));
      assert.deepEqual(kept.map((r) => r.edit.length), [...digits].map((_, i) => i + 2), 'each resolves with what it kept');
      assert.equal((await store.loadAccess('r')).edit, `e${digits}`, 'none lost, in the order asked');
      assert.equal((await store.updateAccess('r', () => null)).edit, `e${digits}`, 'null keeps what is held');
      store.close();
    },
  },
  {
    name: 'a room’s turns at its access run one at a time, other rooms’ meanwhile; a failed turn ends too',
    async run(makeStore, assert) {
      const store = await makeStore();
      const events = [];
      const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const turn = (room, name, ms, fail = false) =>
        store.exclusiveAccess(room, async () => {
          events.push(`${name}+`);
          await pause(ms);
          events.push(`${name}-`);
          if (fail) throw new Error(name);
          return name;
        });
      const results = await Promise.allSettled([turn('r', 'a', 40, true), turn('r', 'b', 0), turn('s', 'c', 0), turn('r', 'd', 0)]);
      assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message)), ['a', 'b', 'c', 'd']);
      assert.deepEqual(events.filter((e) => e !== 'c+' && e !== 'c-'), ['a+', 'a-', 'b+', 'b-', 'd+', 'd-'], 'one at a time, in the order asked');
      assert.ok(events.indexOf('c-') < events.indexOf('a-'), 'another room’s turn does not wait');
      // Turns of another kind (a compaction pass) do not wait for the room's access either.
      const order = [];
      await Promise.all([
        store.exclusiveAccess('r', async () => {
          order.push('access+');
          await pause(40);
          order.push('access-');
        }),
        store.exclusiveAccess('r', async () => order.push('compaction'), 'compaction'),
      ]);
      assert.deepEqual(order, ['access+', 'compaction', 'access-']);
      store.close();
    },
  },
];
