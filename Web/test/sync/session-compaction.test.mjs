// A page compacts its store by the board's rule (store-compaction.js), against the fake server: a pass runs
// on its own once due after a sync settles; a reload shows the same board, numbers its next change after
// every seq it gave out, and has the undo history it had; a change removed that arrives again is taken as
// any other and goes with the next pass; a snapshot holding this page's own changes it removed is one it
// made; and the page sends a snapshot standing for all it removed, which a page holding everything accepts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { encodePack } from '../../js/wire/pack.js';
import { encodeSnapshot } from '../../js/wire/snapshot-part.js';
import { testAuthor } from '../support/keys.mjs';
import { cutOf } from './support/cuts.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';
import { loggedChanges, reviewedByOneHoldingEverything, snapshotsStored } from './support/snapshots.mjs';

const ROOM = 'room-1';
const peer = await testAuthor(0x91);

/** A memory store that can lose its watermark, as a page whose last write of it failed. */
class ForgetfulStore extends MemoryStore {
  forgetWatermark = false;

  async loadRoom(room) {
    const contents = await super.loadRoom(room);
    return this.forgetWatermark ? { ...contents, watermark: 0 } : contents;
  }
}

/** Opens a session closed after the test, whatever happens. */
async function openFor(t, options) {
  const session = await open({ room: ROOM, reviewAfter: Infinity, snapshotThreshold: null, compactionDelay: 0, ...options });
  t.after(() => session.close());
  return session;
}

/** A board of encoded changes. @param {Uint8Array[]} changes */
function boardOf(changes) {
  const board = new Board('main');
  board.applyAll(changes.map(decodeChange));
  return board;
}

/**
 * Drawn offline, then shared: 130 strokes, each undone, and one more, which lets the page settle the first
 * 260 (the strokes undone for good, and their undos: inert) in change 262; then a stroke, an erase of one
 * of the strokes undone (inert, but in the undo history) and an undo of that erase: 265 changes.
 */
function drawAndSettle(page) {
  const first = [];
  for (let i = 0; i < 130; i++) first.push(page.commit([stroke(i * 3, 2)]));
  for (let i = 0; i < 130; i++) page.undo();
  page.commit([stroke(1_000)]);
  page.commit([stroke(2_000)]);
  page.commit([{ op: 'erase', stroke: `${first[0].id.replica}-${first[0].id.seq}-0`, intervals: [[0, 1]] }]);
  page.undo();
  return first;
}

/**
 * A page on `store` that drew offline (drawAndSettle), shared it and ran its compaction pass, synced.
 * @param {import('node:test').TestContext} t @param {FakeServer} server @param {object} store
 */
async function compactedPage(t, server, store) {
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: store, paused: true, compactionThreshold: 100 });
  drawAndSettle(page);
  page.resume();
  await until(() => page.diagnostics.changesPruned === 260, 'the pass');
  await synced(page);
  return page;
}

test('a page compacts its store once due; a reload shows the same board, takes a fresh seq, and keeps its undo history', async (t) => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: store, paused: true, compactionThreshold: 100 });
  drawAndSettle(page);
  assert.equal(page.board.changeCount, 265, '130 strokes, 130 undos, a stroke, a settle, a stroke, an erase, its undo');
  const hash = page.board.hash();
  page.resume();
  await until(() => page.diagnostics.changesPruned > 0, 'a compaction pass, once the sync settled');
  await synced(page);
  assert.equal(page.diagnostics.changesPruned, 260, 'the strokes undone for good and their undos');
  assert.equal(page.board.changeCount, 265, 'the board on screen keeps what it applied');
  const room = await store.loadRoom(ROOM);
  assert.deepEqual(room.changes.map((change) => change.seq).sort((a, b) => a - b), [261, 262, 263, 264, 265]);
  const settle = room.changes.find((change) => change.seq === 262);
  assert.deepEqual(decodeChange(settle.bytes).operations.map((op) => [op.op, op.through]), [['settle', 260]]);
  assert.deepEqual(room.pruned.map(({ replica, seq }) => [replica, seq]), [[page.device, 265]]);
  assert.deepEqual(room.replicas.map(({ lastSeq }) => lastSeq), [265]);
  await page.close();

  // A reload: the same drawing from what is left, the timeline resumed past every seq, the same stacks.
  const reloaded = await openFor(t, { WebSocket: server.WebSocket, storage: store, paused: true });
  assert.equal(reloaded.device, page.device, 'the same timeline');
  assert.equal(reloaded.board.hash(), hash);
  assert.equal(reloaded.board.changeCount, 5);
  assert.equal(reloaded.canRedo, true, 'the erase undone can be redone');
  const redo = reloaded.redo();
  assert.equal(redo.id.seq, 266, 'a fresh seq');
  assert.deepEqual(redo.operations, [{ op: 'redo', change: { replica: page.device, seq: 264 } }]);
  const undone = [];
  for (let change = reloaded.undo(); change !== null; change = reloaded.undo()) undone.push(change.operations[0].change.seq);
  assert.deepEqual(undone, [264, 263, 261], 'the erase, then the two strokes drawn after the settle');
  assert.equal(reloaded.undoReachedItsEnd, true, 'older changes can no longer be undone');
  assert.equal(reloaded.commit([stroke(3_000)]).id.seq, 270);
  reloaded.resume();
  await synced(reloaded);
  assert.equal(server.refused.length, 0, 'the server took every seq as new');
});

test('a change removed that arrives again, in a catch-up after a lost watermark, is taken again and goes with the next pass', async (t) => {
  const server = new FakeServer();
  const store = new ForgetfulStore();
  const page = await compactedPage(t, server, store);
  const hash = page.board.hash();
  await page.close();

  store.forgetWatermark = true;
  const again = await openFor(t, { WebSocket: server.WebSocket, storage: store, compactionThreshold: 100 });
  assert.equal(again.board.changeCount, 5);
  store.forgetWatermark = false;
  await synced(again);
  assert.equal(server.subscribes.at(-1).after, 0, 'from the start of the room');
  await until(() => again.board.changeCount === 265, 'every change applied again');
  assert.equal(again.board.hash(), hash, 'they change nothing shown');
  assert.deepEqual([again.diagnostics.packsRefused, again.diagnostics.snapshotsRefused, again.status.detail.includes('could not save')], [0, 0, false]);
  await until(() => again.diagnostics.changesPruned === 260, 'the next pass');
  assert.equal((await store.loadRoom(ROOM)).changes.length, 5, 'gone again');
  assert.equal(again.commit([stroke(5)]).id.seq, 266);
  await synced(again);
});

test('a snapshot holding this page’s own changes that its store left out is one it made: taken, not refused', async (t) => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const page = await compactedPage(t, server, store);
  // Peer holds everything and leaves nothing out: its snapshot holds the page's strokes undone for good.
  const theirs = encodeChange({ id: { replica: peer.replica, seq: 1 }, stamp: { wall: Date.now(), counter: 0 }, board: 'main', operations: [stroke(9)] });
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [theirs] }, peer.keys));
  await until(() => page.board.changeCount === 266, 'peer’s stroke');
  const everything = await loggedChanges(server, ROOM);
  const position = server.log.get(ROOM).length;
  const id = new Uint8Array(16).fill(4);
  for (const part of await encodeSnapshot({ room: ROOM, position, cut: cutOf(everything), changes: everything, id }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  await until(() => page.diagnostics.snapshotsChecked + page.diagnostics.snapshotsRefused === 1, 'the review');
  assert.equal(page.diagnostics.snapshotRefusal, null);
  assert.equal(page.diagnostics.snapshotsChecked, 1);
  assert.equal((await store.loadRoom(ROOM)).changes.length, 6, 'nothing of its own stored again');
});

test('a page that compacted its store sends a snapshot standing for all it left out; one holding everything accepts it', async (t) => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const page = await compactedPage(t, server, store);
  await page.close();
  const reloaded = await openFor(t, { WebSocket: server.WebSocket, storage: store, snapshotThreshold: 5, snapshotDelay: 0 });
  await until(() => reloaded.diagnostics.snapshotsSent === 1, 'the snapshot');
  const [{ snapshot }] = await snapshotsStored(server, ROOM, 1);
  assert.equal(snapshot.cut.get(reloaded.device)?.seq, 265, 'standing for every change the page made');
  assert.equal(snapshot.changes.length, 3, 'holding what still matters: the two strokes and the settle');
  const everything = await loggedChanges(server, ROOM);
  const verdict = reviewedByOneHoldingEverything(snapshot, everything);
  assert.equal(verdict.accepted, true, verdict.reason);
  assert.equal(verdict.leftOut.length, 262, 'what the page left out, and the erase and its undo');
  assert.equal(boardOf(snapshot.changes).hash(), reloaded.board.hash());
});
