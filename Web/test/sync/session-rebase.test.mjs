// A page behind the floor (docs/ARCHITECTURE.md, "Catching up from before the floor"), against the fake
// server: the rebase snapshot it takes replaces what it holds inside the cut. The changes there that the
// snapshot leaves out, which stopped mattering while it was away, go from the store and the board (its own
// included); its own changes the server never stored stay queued; its seqs go on above the cut; and a late
// copy of a removed change is not taken again, before or after a reload.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { changeOrigin, decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { encodeSnapshot } from '../../js/wire/snapshot-part.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';

const ROOM = 'room-1';
const peer = await testAuthor(0x71);

/** A change of peer's, encoded, stamped after everything the page made. */
const peers = (seq, operations) => {
  const stamp = { wall: Date.now() + seq, counter: 0 };
  return encodeChange({ id: { replica: peer.replica, seq }, stamp, board: 'main', operations });
};

/** The cut of encoded changes: each replica's newest seq, with its stamp. */
function cutOf(changes) {
  const cut = new Map();
  for (const bytes of changes) {
    const { replica, seq, stamp } = changeOrigin(bytes);
    if ((cut.get(replica)?.seq ?? 0) < seq) cut.set(replica, { seq: Number(seq), stamp });
  }
  return cut;
}

/** The keys of the changes a store holds for the room. */
async function storedKeys(store) {
  return (await store.loadRoom(ROOM)).changes.map((change) => change.key).sort();
}

/** Resolves once the store's watermark reaches `position`: the session has handled the packs through it. */
async function seen(store, position) {
  const start = Date.now();
  while ((await store.loadRoom(ROOM)).watermark < position) {
    if (Date.now() - start > 10_000) throw new Error(`timed out waiting for position ${position} to be seen`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The board the store's changes make: what a reload would show. */
async function boardOf(store) {
  const board = new Board('main');
  board.applyAll((await store.loadRoom(ROOM)).changes.map((change) => decodeChange(change.bytes)));
  return board;
}

/**
 * A page that drew a stroke x, then went away and drew another offline; meanwhile peer deleted x and
 * settled, and the server dropped its packs for peer's snapshot, which leaves x's add out.
 */
async function awayWhileCompacted(t) {
  const server = new FakeServer();
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const x = first.commit([stroke(0)]);
  await synced(first);
  server.up = false;
  const offline = first.commit([stroke(40)]);
  await first.close();
  const [drawn] = server.log.get(ROOM);
  const xBytes = (await decodePack(drawn.pack, { room: ROOM })).changes[0];
  // What pushing x again would send: packs of the page's, signed by its timeline's key.
  const lease = await store.tryLease(ROOM, first.device);
  lease.release();
  const late = (/** @type {object[]} */ ...after) =>
    encodePack({ room: ROOM, changes: [xBytes, ...after.map((change) => encodeChange(change))] }, lease.keys);
  const deleted = peers(1, [{ op: 'set', stroke: `${x.id.replica}-1-0`, attribute: 'deleted', value: true }]);
  const settled = peers(2, [{ op: 'settle', through: 1, inactive: [] }]);
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [deleted] }, peer.keys));
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [settled] }, peer.keys));
  const id = new Uint8Array(16).fill(7);
  const cut = cutOf([xBytes, deleted, settled]);
  const parts = await encodeSnapshot({ room: ROOM, position: 3, cut, changes: [deleted, settled], id }, peer.keys);
  for (const part of parts) await server.inject(ROOM, part);
  server.rebase(ROOM, 3, [4]);
  server.up = true;
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  t.after(() => session.close());
  return { server, store, session, x, offline, late };
}

test('a rebase removes what the snapshot left out, keeps what the server never stored, and seqs go on', async (t) => {
  const { server, store, session, x, offline, late } = await awayWhileCompacted(t);
  const removals = [];
  session.addEventListener('change', (event) => {
    if (event.detail.removed !== undefined) removals.push(event.detail.removed);
  });
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the rebase to be taken');
  await synced(session);
  const xKey = `${x.id.replica}-1`;
  assert.deepEqual(removals, [[xKey]]);
  assert.equal(session.board.contains(x.id), false, 'x is gone from the board');
  assert.equal(session.board.points(`${xKey}-0`), null);
  assert.ok(!(await storedKeys(store)).includes(xKey), 'and from the store');
  assert.ok(session.board.contains(offline.id), 'the change made offline stays');
  assert.deepEqual(session.board.strokes().map((s) => s.id), [`${x.id.replica}-2-0`]);
  await until(() => server.log.get(ROOM).length === 5, 'the change made offline to be pushed');
  assert.equal(session.board.hash(), (await boardOf(store)).hash(), 'the board is the one the store makes');

  const next = session.commit([stroke(80)]);
  assert.equal(next.id.seq, 3, 'a fresh seq');
  await synced(session);

  // A late copy of x's add, pushed again: not stored, not applied.
  const hash = session.board.hash();
  await server.inject(ROOM, await late(offline));
  await seen(store, 7);
  assert.equal(session.board.contains(x.id), false);
  assert.equal(session.board.hash(), hash);
  assert.ok(!(await storedKeys(store)).includes(xKey));
  await session.close();

  // A reload holds the floor: the board is the same, and the copy, come again, is still not taken.
  const reloaded = await open({ WebSocket: server.WebSocket, storage: store, room: ROOM });
  t.after(() => reloaded.close());
  assert.equal(reloaded.board.hash(), hash);
  assert.equal(reloaded.commit([stroke(120)]).id.seq, 4);
  await synced(reloaded);
  await server.inject(ROOM, await late(offline, next));
  await seen(store, 9);
  assert.equal(reloaded.board.contains(x.id), false);
  assert.ok(!(await storedKeys(store)).includes(xKey));
});

test('a rebase whose cut stands for this page’s changes it never made moves its seqs past them', async (t) => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  first.commit([stroke(0)]);
  await synced(first);
  await first.close();
  const [drawn] = server.log.get(ROOM);
  const [mine] = (await decodePack(drawn.pack, { room: ROOM })).changes;
  const theirs = peers(1, [stroke(10)]);
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [theirs] }, peer.keys));
  const cut = cutOf([mine, theirs]);
  cut.set(first.device, { seq: 5, stamp: { wall: 1, counter: 0 } });
  const id = new Uint8Array(16).fill(8);
  for (const part of await encodeSnapshot({ room: ROOM, position: 2, cut, changes: [mine, theirs], id }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  server.rebase(ROOM, 2, [3]);
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  t.after(() => session.close());
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the rebase to be taken');
  assert.equal(session.commit([stroke(20)]).id.seq, 6, 'no seq the cut stands for is given out');
  await synced(session);
});

test('a rebase that leaves out a stroke that still shows here is refused, and nothing is removed', async (t) => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const x = first.commit([stroke(0)]);
  await synced(first);
  await first.close();
  const [drawn] = server.log.get(ROOM);
  const [xBytes] = (await decodePack(drawn.pack, { room: ROOM })).changes;
  const theirs = peers(1, [stroke(10)]);
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [theirs] }, peer.keys));
  const id = new Uint8Array(16).fill(9);
  const cut = cutOf([xBytes, theirs]);
  for (const part of await encodeSnapshot({ room: ROOM, position: 2, cut, changes: [theirs], id }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  server.rebase(ROOM, 2, [3]);
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  t.after(() => session.close());
  await until(() => session.status.unfollowed, 'the room not followed');
  assert.equal(session.diagnostics.snapshotRefusal, `it leaves out ${x.id.replica}-1, which still matters here`);
  assert.ok(session.board.contains(x.id));
  assert.deepEqual(await storedKeys(store), [`${x.id.replica}-1`]);
  assert.deepEqual((await store.loadRoom(ROOM)).floor, new Map());
});
