// Pausing sharing and reviewing what arrived after time away (js/sync/catch-up-review.js, the session's
// pause, resume and held changes), against the in-process fake server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { encodeChange } from '../../js/wire/change.js';
import { SCHEMA_VERSION } from '../../js/wire/limits.js';
import { encodePack } from '../../js/wire/pack.js';
import { storedChange } from '../../js/sync/store-records.js';
import { changeKey, HeldChanges, holdsCatchUp, REVIEW_AFTER } from '../../js/sync/catch-up-review.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { randomFor } from './support/random.mjs';
import { open, stroke, synced, TestNetwork, until } from './support/sessions.mjs';

/** A clock the test moves on: real time plus `skew`, within the protocol's lead of the server's. */
function testClock() {
  const clock = { skew: 0, now: () => Date.now() + clock.skew };
  return clock;
}

/** Another person's changes, each a signed pack of its own, stamped near now. */
async function othersPacks(seed, count, { from = 1, x = 0 } = {}) {
  const other = await testAuthor(seed);
  const packs = [];
  const changes = [];
  for (let seq = from; seq < from + count; seq++) {
    const change = { id: { replica: other.replica, seq }, stamp: { wall: Date.now() - 1_000 + seq, counter: 0 }, board: 'main', operations: [stroke(x + seq * 10)] };
    changes.push(change);
    packs.push(await encodePack({ room: 'room-1', changes: [change] }, other.keys));
  }
  return { replica: other.replica, changes, packs };
}

/** A board holding `changes`. */
function boardOf(changes) {
  const board = new Board('main');
  board.applyAll(changes);
  return board;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('a catch-up is held only after a gap of at least the threshold, and never on a first download', () => {
  assert.equal(holdsCatchUp({ liveAt: null, now: 1e12 }), false, 'a room never live here: its first download');
  assert.equal(holdsCatchUp({ liveAt: 1_000, now: 1_000 + REVIEW_AFTER - 1 }), false);
  assert.equal(holdsCatchUp({ liveAt: 1_000, now: 1_000 + REVIEW_AFTER }), true);
  assert.equal(holdsCatchUp({ liveAt: 1_000, now: 1_000, after: 0 }), true, 'a threshold of 0 holds every catch-up');
  assert.equal(holdsCatchUp({ liveAt: 0, now: 1e12, after: Infinity }), false, 'Infinity never holds');
});

test('held changes are kept once, counted by author, most first, and handed over by take', () => {
  const held = new HeldChanges();
  const change = (replica, seq) => ({ id: { replica, seq }, stamp: { wall: seq, counter: 0 }, board: 'main', operations: [] });
  const a = 'aa'.repeat(16);
  const b = 'bb'.repeat(16);
  const c = 'cc'.repeat(16);
  assert.equal(held.add(change(a, 1)), true);
  assert.equal(held.add(change(a, 1)), false, 'once');
  held.add(change(b, 1));
  held.add(change(c, 1));
  held.add(change(c, 2));
  assert.equal(held.size, 4);
  assert.ok(held.has(`${c}-2`));
  assert.equal(changeKey(change(c, 2)), `${c}-2`);
  assert.deepEqual(held.authors(), [
    { replica: c, count: 2 },
    { replica: a, count: 1 },
    { replica: b, count: 1 },
  ]);
  assert.deepEqual(held.take().map(changeKey), [`${a}-1`, `${b}-1`, `${c}-1`, `${c}-2`]);
  assert.equal(held.size, 0);
  assert.deepEqual(held.authors(), []);
});

test('a long stroke saved while drawn is one edit held: its appends are counted with the stroke they carry on', () => {
  const held = new HeldChanges();
  const a = 'aa'.repeat(16);
  const b = 'bb'.repeat(16);
  const change = (replica, seq, operations) => ({ id: { replica, seq }, stamp: { wall: seq, counter: 0 }, board: 'main', operations });
  const append = (replica, seq) => ({ op: 'appendPoints', stroke: `${replica}-${seq}-0`, points: [[1, 2]], pressures: null });
  // A's stroke: added by change 1, carried on by 2, 3 and 4.
  held.add(change(a, 1, [{ op: 'addStroke', colour: 0x000000ff, width: 3, points: [[0, 0]], pressures: null }]));
  for (const seq of [2, 3, 4]) held.add(change(a, seq, [append(a, 1)]));
  // B carries on a stroke whose start was merged already: that append is an edit of its own here.
  held.add(change(b, 7, [append(b, 6)]));
  // An append naming another timeline's change is no continuation of it.
  held.add(change(b, 8, [append(a, 1)]));
  assert.equal(held.size, 6, 'every change is held');
  assert.equal(held.edits, 3);
  assert.deepEqual(held.authors(), [
    { replica: b, count: 2 },
    { replica: a, count: 1 },
  ]);
  // Counted again once more is held, and once all is handed over.
  held.add(change(b, 9, [{ op: 'addStroke', colour: 0x000000ff, width: 3, points: [[5, 5]], pressures: null }]));
  assert.equal(held.edits, 4);
  held.take();
  assert.equal(held.edits, 0);
});

test('pausing closes the connection: nothing is sent, edits are stored and counted, resume pushes them', async () => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  await synced(session);
  const presenceBefore = server.presence.length;
  session.pause();
  assert.equal(session.paused, true);
  await until(() => server.sockets.size === 0, 'the connection closed');
  assert.equal(session.status.state, 'paused');
  session.setPresence({ cursor: [1, 2] });
  const made = [session.commit([stroke(0)]), session.commit([stroke(10)])];
  await pause(100);
  assert.equal(server.pushes.length, 0, 'no push while paused');
  assert.equal(server.presence.length, presenceBefore, 'no presence while paused');
  assert.equal(server.attempts, 1, 'no reconnection while paused');
  assert.equal(session.status.state, 'paused');
  assert.equal(session.status.changesToUpload, 2);
  assert.equal(session.status.paused, true);
  assert.match(session.status.detail, /paused: 2 changes kept on this device/);
  const room = await store.loadRoom('room-1');
  assert.deepEqual(room.outbox.map((entry) => entry.seq).sort(), [1, 2], 'stored and queued as offline edits are');

  session.resume();
  assert.equal(session.paused, false);
  await synced(session);
  assert.equal(server.log.get('room-1').length, 1, 'both edits pushed on resume');
  assert.equal(session.status.changesToUpload, 0);
  assert.equal(made.length, 2);
  await session.close();
});

test('a long stroke saved while drawn counts as one edit to upload, also after a reload', async () => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const session = await open({ WebSocket: server.WebSocket, storage: store, paused: true });
  const added = session.commit([stroke(0)]);
  const id = `${added.id.replica}-${added.id.seq}-0`;
  for (const x of [3, 6, 9]) session.commit([{ op: 'appendPoints', stroke: id, points: [[x, 1], [x + 1, 2]], pressures: null }]);
  assert.equal(session.status.changesToUpload, 1, 'an addStroke and its three appends');
  session.commit([stroke(20)]);
  assert.equal(session.status.changesToUpload, 2);
  assert.match(session.status.detail, /paused: 2 changes kept on this device/);
  await session.close();

  const reopened = await open({ WebSocket: server.WebSocket, storage: store, paused: true });
  assert.equal(reopened.status.changesToUpload, 2, 'counted alike from the store');
  reopened.resume();
  await synced(reopened);
  assert.equal(reopened.status.changesToUpload, 0);
  assert.equal(server.log.get('room-1').length > 0, true);
  await reopened.close();
});

test('the count of edits to upload, kept up edit by edit, is the count a reload works out from the store', async (t) => {
  const random = randomFor(t);
  const server = new FakeServer();
  const store = new MemoryStore();
  let session = await open({ WebSocket: server.WebSocket, storage: store, paused: true });
  const strokes = [];
  for (let round = 0; round < 6; round++) {
    for (let i = random.int(10, 60); i > 0; i--) {
      if (strokes.length > 0 && random.next() < 0.6) {
        const x = random.int(0, 500);
        session.commit([{ op: 'appendPoints', stroke: random.pick(strokes.slice(-3)), points: [[x, 1], [x + 1, 2]], pressures: null }]);
      } else {
        const added = session.commit([stroke(random.int(0, 500))]);
        strokes.push(`${added.id.replica}-${added.id.seq}-0`);
      }
    }
    // Some rounds upload part of it: packs are acknowledged while more is drawn.
    if (random.bool()) {
      session.resume();
      for (let i = random.int(1, 20); i > 0; i--) session.commit([stroke(random.int(0, 500))]);
      await until(() => session.status.changesToUpload === 0 || random.next() < 0.2, 'some uploads');
      session.pause();
    }
    const kept = session.status.changesToUpload;
    await session.close();
    session = await open({ WebSocket: server.WebSocket, storage: store, paused: true });
    assert.equal(session.status.changesToUpload, kept, `round ${round}, seed ${random.seed}`);
  }
  session.resume();
  await synced(session);
  assert.equal(session.status.changesToUpload, 0);
  await session.close();
});

test('a session opened paused does not connect, whatever the network does, until resumed', async () => {
  const server = new FakeServer();
  const network = new TestNetwork();
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), network, paused: true });
  assert.equal(session.status.state, 'paused');
  network.goOffline();
  network.goOnline();
  await pause(100);
  assert.equal(server.attempts, 0);
  assert.equal(session.status.state, 'paused');
  session.resume();
  await synced(session);
  assert.equal(server.attempts, 1);
  await session.close();
  assert.throws(() => session.pause(), (error) => error.code === 'closed');
});

test('while paused nothing is received; a short pause merges the catch-up at once', async () => {
  const server = new FakeServer();
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore() });
  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore() });
  await Promise.all([synced(alice), synced(bob)]);
  bob.pause();
  await until(() => server.sockets.size === 1, 'bob gone');
  alice.commit([stroke(0)]);
  await synced(alice);
  await pause(100);
  assert.equal(bob.board.changeCount, 0, 'nothing applied while paused');
  bob.resume();
  await until(() => bob.board.changeCount === 1, 'the catch-up');
  await synced(bob);
  assert.equal(bob.review.count, 0, 'a pause shorter than the threshold holds nothing');
  assert.equal(bob.board.hash(), alice.board.hash());
  await alice.close();
  await bob.close();
});

test('after a long gap the catch-up is held: stored and seen, off the board until merged, and still held after a reload', async () => {
  const server = new FakeServer();
  const network = new TestNetwork();
  const clock = testClock();
  const store = new MemoryStore();
  const early = await othersPacks(0x21, 1);
  await server.inject('room-1', early.packs[0]);
  let bob = await open({ WebSocket: server.WebSocket, storage: store, network, now: clock.now });
  await synced(bob);
  assert.equal(bob.board.changeCount, 1, 'the first download is never held');
  assert.equal(bob.review.count, 0);

  network.goOffline();
  await until(() => bob.status.state === 'offline', 'offline');
  const mine = bob.commit([stroke(500)]);
  clock.skew += REVIEW_AFTER + 1_000;
  const later = await othersPacks(0x21, 2, { from: 2 });
  const third = await othersPacks(0x22, 1);
  for (const pack of [...later.packs, ...third.packs]) await server.inject('room-1', pack);
  const reviews = [];
  bob.addEventListener('review', (event) => reviews.push(event.detail.count));
  const live = bob.board.hash();
  network.goOnline();
  await synced(bob);
  assert.equal(bob.review.count, 3, 'the three changes from others are held');
  assert.deepEqual(bob.review.authors, [
    { replica: later.replica, count: 2 },
    { replica: third.replica, count: 1 },
  ]);
  assert.equal(bob.status.held, 3);
  assert.equal(bob.board.changeCount, 2, 'the board holds the first change and bob’s own');
  assert.equal(bob.board.hash(), live, 'the live board is as before the catch-up');
  assert.ok(bob.board.contains(mine.id));
  assert.equal(reviews.at(-1), 3, 'a review event says so');
  const all = [...early.changes, mine, ...later.changes, ...third.changes];
  const everything = boardOf(all);
  assert.equal(bob.previewBoard().hash(), everything.hash(), 'the preview shows what merging would');
  assert.equal(bob.board.hash(), live, 'previewing changes nothing');

  // Held, yet seen: the watermark covers them, and reconnecting does not ask for them again.
  let room = await store.loadRoom('room-1');
  assert.equal(room.watermark, 5, 'the first pack, bob’s own push and the three held');
  assert.equal(room.held.length, 3);
  assert.equal(room.changes.length, 5, 'held changes are stored like any other');
  server.crash();
  await until(() => server.subscribes.length === 3, 'a reconnection');
  await synced(bob);
  assert.equal(server.subscribes.at(-1).after, 5, 'subscribed after them');
  assert.equal(bob.review.count, 3, 'a short reconnection keeps them held, and holds nothing new');

  // A reload: still held, still off the board.
  await bob.close();
  bob = await open({ WebSocket: server.WebSocket, storage: store, network, now: clock.now });
  assert.equal(bob.review.count, 3);
  assert.equal(bob.board.hash(), live);
  assert.equal(bob.status.held, 3);
  await synced(bob);
  assert.equal(bob.review.count, 3);

  // Live changes while online merge at once, held ones wait.
  const liveOne = await othersPacks(0x23, 1);
  await server.inject('room-1', liveOne.packs[0]);
  await until(() => bob.board.contains(liveOne.changes[0].id), 'a live change on the board');
  assert.equal(bob.review.count, 3);

  const merged = [];
  bob.addEventListener('change', (event) => merged.push(...event.detail.changes));
  assert.equal(bob.mergeHeld(), 3);
  assert.equal(merged.length, 3);
  assert.equal(bob.review.count, 0);
  assert.equal(bob.status.held, 0);
  assert.equal(bob.board.hash(), boardOf([...all, ...liveOne.changes]).hash());
  assert.equal(bob.mergeHeld(), 0, 'nothing left to merge');
  await bob.close();
  room = await store.loadRoom('room-1');
  assert.equal(room.held.length, 0, 'merged for good');
  const reloaded = await open({ WebSocket: server.WebSocket, storage: store, network, now: clock.now });
  assert.equal(reloaded.board.changeCount, 6);
  assert.equal(reloaded.review.count, 0);
  await reloaded.close();
});

test('a long pause holds the catch-up too; a reload after a long time away holds it as well', async () => {
  const server = new FakeServer();
  const clock = testClock();
  const store = new MemoryStore();
  let bob = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(bob);
  bob.pause();
  await until(() => server.sockets.size === 0, 'bob gone');
  clock.skew += REVIEW_AFTER;
  const first = await othersPacks(0x31, 2);
  for (const pack of first.packs) await server.inject('room-1', pack);
  bob.resume();
  await synced(bob);
  assert.equal(bob.review.count, 2, 'paused long enough: held');
  assert.equal(bob.board.changeCount, 0);
  bob.mergeHeld();
  assert.equal(bob.board.changeCount, 2);

  // Closed while live; opened again a minute later: what came meanwhile is held.
  await bob.close();
  clock.skew += 60_000;
  const second = await othersPacks(0x31, 1, { from: 3 });
  await server.inject('room-1', second.packs[0]);
  bob = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(bob);
  assert.equal(bob.review.count, 1);
  assert.equal(bob.board.changeCount, 2);
  await bob.close();

  // Opened again at once: nothing more is held, and the one held stays so.
  const third = await othersPacks(0x31, 1, { from: 4 });
  await server.inject('room-1', third.packs[0]);
  bob = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(bob);
  assert.equal(bob.review.count, 1);
  assert.equal(bob.board.changeCount, 3, 'a short absence merges at once');
  await bob.close();
});

test('changes of this browser’s own timelines (another tab) are never held, nor those another tab shows', async () => {
  const server = new FakeServer();
  const clock = testClock();
  const store = new MemoryStore();
  const network = new TestNetwork();
  const first = await open({ WebSocket: server.WebSocket, storage: store, network, now: clock.now });
  await synced(first);
  network.goOffline();
  await until(() => first.status.state === 'offline', 'first tab offline');
  // A second tab of the same browser, opened after the first: the first did not know its timeline.
  const second = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(second);
  const made = second.commit([stroke(0)]);
  await synced(second);
  clock.skew += REVIEW_AFTER * 2;
  // Stored by the second tab as it came live: on that tab's board, so merged on the first's too.
  const seen = await othersPacks(0x41, 1);
  await server.inject('room-1', seen.packs[0]);
  await until(() => second.board.changeCount === 2, 'the other tab’s live change');
  await second.close();
  const unseen = await othersPacks(0x42, 1);
  await server.inject('room-1', unseen.packs[0]);
  network.goOnline();
  await synced(first);
  assert.ok(first.board.contains(made.id), 'the other tab’s own change is merged');
  assert.ok(first.board.contains(seen.changes[0].id), 'what the other tab showed is merged');
  assert.equal(first.review.count, 1, 'only the change no tab has shown is held');
  assert.deepEqual(first.review.authors.map((author) => author.replica), [unseen.replica]);
  await first.close();
  // On reload the tab knows every timeline of the store: the same is held.
  const again = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  assert.equal(again.review.count, 1);
  assert.ok(again.board.contains(made.id));
  await again.close();
});

test('a session that holds changes keeps drawing, and the preview takes its new changes', async () => {
  const server = new FakeServer();
  const clock = testClock();
  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), now: clock.now, reviewAfter: 1_000 });
  await synced(bob);
  bob.pause();
  await until(() => server.sockets.size === 0, 'bob gone');
  clock.skew += 1_000;
  const others = await othersPacks(0x51, 2);
  for (const pack of others.packs) await server.inject('room-1', pack);
  bob.resume();
  await synced(bob);
  assert.equal(bob.review.count, 2);
  const preview = bob.previewBoard();
  bob.addEventListener('change', (event) => preview.applyAll(event.detail.changes));
  const drawn = bob.commit([stroke(300)]);
  await synced(bob);
  assert.equal(bob.board.changeCount, 1);
  assert.equal(preview.hash(), boardOf([...others.changes, drawn]).hash());
  assert.equal(server.log.get('room-1').length, 3, 'drawing while changes are held syncs as usual');
  bob.mergeHeld();
  assert.equal(bob.board.hash(), preview.hash(), 'merging gives what the preview showed');
  await bob.close();
});

test('a held mark on a change of this browser’s own timeline is ignored on loading: the change shows', async () => {
  const store = new MemoryStore();
  const lease = await store.claimReplica('room-1');
  lease.release();
  const change = { id: { replica: lease.replica, seq: 1 }, stamp: { wall: Date.now(), counter: 0 }, board: 'main', operations: [stroke(0)] };
  await store.storeRemote('room-1', [storedChange('room-1', change, encodeChange(change), SCHEMA_VERSION)], [], [changeKey(change)]);
  assert.deepEqual((await store.loadRoom('room-1')).held, [changeKey(change)]);
  const server = new FakeServer();
  server.up = false;
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  assert.ok(session.board.contains(change.id));
  assert.equal(session.review.count, 0);
  await session.close();
});

test('a session closed while it signs a pack stores the pack before close resolves: no change is left queued twice', async (t) => {
  const random = randomFor(t);
  const server = new FakeServer();
  const store = new MemoryStore();
  for (let trial = 0; trial < 20; trial++) {
    const session = await open({ WebSocket: server.WebSocket, storage: store, paused: true });
    for (let i = random.int(5, 40); i > 0; i--) session.commit([stroke(random.int(0, 500))]);
    session.resume();
    // Closed at some moment of the push: before, while or after a pack is signed.
    const closeAt = Date.now() + random.int(0, 30);
    while (Date.now() < closeAt) {
      session.commit([stroke(random.int(0, 500))]);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await session.close();
    const closed = await store.loadRoom('room-1');
    // Nothing is written once close has resolved.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { outbox, packs } = await store.loadRoom('room-1');
    assert.equal(packs.length === closed.packs.length && outbox.length === closed.outbox.length, true, `trial ${trial}, seed ${random.seed}: the store changed after close`);
    const places = [...outbox.map((entry) => entry.key), ...packs.flatMap((pack) => pack.changeKeys)];
    assert.equal(new Set(places).size, places.length, `trial ${trial}, seed ${random.seed}: a change queued and also in a pack, or in two packs`);
  }
});
