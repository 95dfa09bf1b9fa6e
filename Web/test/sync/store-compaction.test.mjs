// Compacting the page's store by the board's rule (store-compaction.js): a pass removes exactly the changes
// that stopped mattering over what is on the board, inside the page's frontier less its changes not
// acknowledged, and of this browser's own only those settled; it records the cut, and the board the store
// makes is the one it made before. Over random histories compacted at random points (seeded: INKWELL_SEED
// replays), the page shows what a page holding everything shows, what it calls inert a page holding
// everything calls inert too, and the snapshot it then sends is one such a page accepts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { changeKey } from '../../js/model/ids.js';
import { inertKeys } from '../../js/sync/room-inert.js';
import { makeSnapshot } from '../../js/sync/snapshot-maker.js';
import { readHeld, reviewSnapshot } from '../../js/sync/snapshot-review.js';
import { compactionPlan, compactRoom, isCompactionDue } from '../../js/sync/store-compaction.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { storedChange } from '../../js/sync/store-records.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { SCHEMA_VERSION } from '../../js/wire/limits.js';
import { SnapshotAssembly } from '../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { add, line } from '../model/support/authors.mjs';
import { reproducibly } from '../model/support/random.mjs';
import { ReplicaSession } from '../model/support/replica-session.mjs';
import { testAuthor } from '../support/keys.mjs';
import { randomFor } from './support/random.mjs';

const ROOM = 'room-1';
const ME = 'ab'.repeat(16);
const PEER = 'c1'.repeat(16);
const OTHER = 'd2'.repeat(16);

/** A store in which ME is this browser's timeline (made before keys: written here, never leased). */
const storeOf = () => new MemoryStore({ legacyReplicas: [{ room: ROOM, replica: ME, lastSeq: 0 }] });

/** The store's record of a change. */
const recordOf = (change) => storedChange(ROOM, change, encodeChange(change), SCHEMA_VERSION);

/** The board the store makes, as a reload does: every stored change but those held for review. */
async function storedBoard(store) {
  const room = await store.loadRoom(ROOM);
  const held = new Set(room.held);
  const board = new Board('main');
  board.applyAll(room.changes.filter((change) => !held.has(change.key)).map((change) => decodeChange(change.bytes)));
  return board;
}

/** Takes the own changes of `keys` off the queue, into a pack the server acknowledged (or not yet). */
async function pushed(store, keys, { acknowledged = true } = {}) {
  const hex = `${keys[0].slice(-4)}`.padStart(64, '0');
  await store.packPlanned({ hex, room: ROOM, replica: ME, changeKeys: keys, bytes: new Uint8Array([1]) });
  if (acknowledged) await store.acknowledgePack(ROOM, hex);
}

/**
 * A history on one board: peer draws a, this browser draws b and erases a; other draws c; peer clears and
 * settles the clear; this browser draws d, settles its first two, erases b (already cleared), and draws
 * three more strokes, the last two not acknowledged.
 */
function history() {
  let wall = 1_800_000_000_000;
  const now = () => ++wall;
  const [peer, me, other] = [PEER, ME, OTHER].map((replica) => new Author({ replica, now }));
  const board = new Board('main');
  const made = (author, operations) => {
    const change = author.makeChange(board, operations);
    board.apply(change);
    return change;
  };
  const strokeOf = (change) => `${change.id.replica}-${change.id.seq}-0`;
  const a = made(peer, [add(line(4))]);
  const b = made(me, [add(line(3, 20))]);
  const eraseA = made(me, [{ op: 'erase', stroke: strokeOf(a), intervals: [[0, 1]] }]);
  const c = made(other, [add(line(3, 40))]);
  const clear = made(peer, [{ op: 'clear' }]);
  const peerSettle = made(peer, [board.settlement(PEER, 2)]);
  const d = made(me, [add(line(3, 60))]);
  const mySettle = made(me, [board.settlement(ME, 2)]);
  const eraseB = made(me, [{ op: 'erase', stroke: strokeOf(b), intervals: [[0, 1]] }]);
  const [e, f, g] = [80, 100, 120].map((y) => made(me, [add(line(2, y))]));
  return { a, b, eraseA, c, clear, peerSettle, d, mySettle, eraseB, e, f, g };
}

test('a pass removes exactly the inert changes acknowledged and settled, records its cut, and the board stays', async () => {
  const h = history();
  const store = storeOf();
  await store.storeRemote(ROOM, [recordOf(h.a)], []);
  for (const change of [h.b, h.eraseA]) await store.recordLocal(recordOf(change));
  // Other's stroke came in a catch-up held for review: not on the board, so no proof of anything.
  await store.storeRemote(ROOM, [recordOf(h.c)], [], [changeKey(h.c.id)]);
  await store.storeRemote(ROOM, [recordOf(h.clear), recordOf(h.peerSettle)], []);
  for (const change of [h.d, h.mySettle, h.eraseB, h.e, h.f, h.g]) await store.recordLocal(recordOf(change));
  await pushed(store, [h.b, h.eraseA, h.d, h.mySettle, h.eraseB, h.e].map((change) => changeKey(change.id)));
  await pushed(store, [changeKey(h.f.id)], { acknowledged: false });
  const before = await storedBoard(store);

  const plan = compactionPlan(await store.loadRoom(ROOM));
  // a was cleared, and so were b and what erased a: dead strokes, and this browser settled b and that erase.
  // Its erase of b is inert too, but not settled: the undo history a reload rebuilds replays it.
  assert.deepEqual(plan.remove.sort(), [h.a, h.b, h.eraseA].map((change) => changeKey(change.id)).sort());
  assert.deepEqual(
    plan.through.map(({ replica, seq }) => [replica, seq]).sort(),
    [[PEER, 3], [ME, 6]].sort(),
    'the frontier less other’s held stroke and this browser’s changes in flight or queued',
  );
  assert.deepEqual(plan.through.find((entry) => entry.replica === ME)?.stamp, h.e.stamp, 'the stamp of its last change');

  const done = await compactRoom(store, ROOM, { force: true });
  assert.deepEqual(done?.removed.sort(), plan.remove);
  const room = await store.loadRoom(ROOM);
  assert.deepEqual(room.pruned.map(({ replica, seq }) => [replica, seq]).sort(), [[PEER, 3], [ME, 6]].sort());
  assert.equal(room.changes.length, 9);
  assert.deepEqual(room.replicas, [{ room: ROOM, replica: ME, lastSeq: 8 }], 'the timeline still stands at its last seq');
  assert.equal((await storedBoard(store)).hash(), before.hash(), 'the board a reload makes is the same');
  const everything = new Board('main');
  everything.applyAll(Object.values(h).filter((change) => change !== h.c));
  assert.equal(before.hash(), everything.hash());

  // Nothing more stops mattering: a second pass removes nothing, and counts what it kept of what it could
  // consider (not other's stroke held for review, nor this browser's changes not acknowledged).
  assert.deepEqual((await compactRoom(store, ROOM, { force: true }))?.removed, []);
  assert.deepEqual(await store.loadStanding(ROOM).then(({ changes, kept }) => [changes, kept]), [9, 6]);
});

test('nothing goes while the page keeps aside what it cannot read yet, nor past what it holds without a gap', async () => {
  const h = history();
  const store = storeOf();
  await store.storeRemote(ROOM, [recordOf(h.a), recordOf(h.clear), recordOf(h.peerSettle)], []);
  const contents = await store.loadRoom(ROOM);
  assert.deepEqual(compactionPlan(contents).remove, [changeKey(h.a.id)]);
  const newer = { room: ROOM, kind: 'change', schemaVersion: SCHEMA_VERSION + 1, bytes: encodeChange(h.c) };
  assert.deepEqual(compactionPlan({ ...contents, aside: [newer] }).remove, [], 'a change of a newer schema might make it matter');
  const ahead = { room: ROOM, kind: 'change', schemaVersion: SCHEMA_VERSION, bytes: encodeChange(h.c), reason: 'stampAhead' };
  assert.deepEqual(compactionPlan({ ...contents, aside: [ahead] }).remove, [], 'nor while a change waits for the clock');
  const forged = { room: ROOM, kind: 'pack', schemaVersion: SCHEMA_VERSION, bytes: new Uint8Array(1), reason: 'badSignature' };
  assert.deepEqual(compactionPlan({ ...contents, aside: [forged] }).remove, [changeKey(h.a.id)], 'a forged pack is no part of the room');
  // Peer's first change never came: its clear and settle lie past a gap, and prove nothing within the cut.
  const gapped = { ...contents, changes: contents.changes.filter((change) => change.seq !== 1) };
  assert.deepEqual(compactionPlan(gapped), { remove: [], through: [], outside: 2 });
});

test('a pass is due at the threshold, then once the records grow by half what the last one kept', () => {
  assert.equal(isCompactionDue({ changes: 999, kept: 0 }, 1_000), false);
  assert.equal(isCompactionDue({ changes: 1_000, kept: 0 }, 1_000), true);
  assert.equal(isCompactionDue({ changes: 1_000, kept: 200 }, 1_000), true, 'most went: the threshold again');
  assert.equal(isCompactionDue({ changes: 1_400, kept: 1_000 }, 1_000), false, 'nothing went: half as many again');
  assert.equal(isCompactionDue({ changes: 1_500, kept: 1_000 }, 1_000), true);
});

/** The changes of a random cut per timeline, each between `low` and `high`. */
function cutBetween(random, low, high) {
  const cut = new Map();
  for (const [replica, top] of high) {
    const seq = random.int(Math.min(low.get(replica) ?? 0, top), top);
    if (seq > 0) cut.set(replica, seq);
  }
  return cut;
}

/** Each timeline as far as `changes` hold it without a gap, starting past `floor`. */
function frontierOf(changes, floor = new Map()) {
  const seqs = new Map();
  for (const change of changes) {
    if (!seqs.has(change.id.replica)) seqs.set(change.id.replica, new Set());
    seqs.get(change.id.replica).add(change.id.seq);
  }
  const frontier = new Map(floor);
  for (const [replica, held] of seqs) {
    let seq = frontier.get(replica) ?? 0;
    while (held.has(seq + 1)) seq += 1;
    frontier.set(replica, seq);
  }
  return frontier;
}

/** A whole snapshot from its parts, as a receiver assembles it. @param {Uint8Array[]} parts */
async function assembled(parts) {
  const read = await Promise.all(parts.map((part) => decodeSnapshotPart(part, { room: ROOM })));
  const assembly = new SnapshotAssembly(read[0]);
  for (const part of read.slice(1)) assembly.add(part);
  return assembly.assembled();
}

test('over random histories compacted at random points, the page shows and calls inert what a page holding everything does (seeded)', async (t) => {
  const random = randomFor(t);
  const me = await testAuthor(0x5a);
  let pruned = 0;
  let held = 0;
  for (let round = 0; round < 8; round++) {
    const session = new ReplicaSession(random, 3);
    // The first replica writes this browser's timeline: as a tab that signs with its key.
    const own = session.replicas[0].author.replica;
    const store = new MemoryStore({
      legacyReplicas: [
        { room: ROOM, replica: own, lastSeq: 0 },
        { room: ROOM, replica: me.replica, lastSeq: 0 },
      ],
    });
    /** Everything the page was given, decoded as the store gives it back. @type {object[]} */
    const all = [];
    /** Keys held for review now. */
    let reviewing = [];
    /** This browser's changes queued, oldest first. */
    let queued = [];
    /** The pack pushed and not acknowledged yet, if any. @type {string | null} */
    let inFlight = null;
    let packs = 0;
    const stepsOf = (count) => {
      const before = session.changes.length;
      session.run(count);
      return session.changes.slice(before);
    };
    for (let step = 0; step < 10; step++) {
      const fresh = stepsOf(random.int(30, 90));
      // Others' changes come in frames, now and then a catch-up held for review; this browser's are recorded.
      let frame = [];
      const hold = random.int(0, 5) === 0;
      const flush = async () => {
        if (frame.length === 0) return;
        const keys = frame.map((change) => changeKey(change.id));
        await store.storeRemote(ROOM, frame.map(recordOf), [], hold ? keys : []);
        if (hold) reviewing.push(...keys);
        frame = [];
      };
      for (const change of fresh) {
        all.push(decodeChange(encodeChange(change)));
        if (change.id.replica === own) {
          await flush();
          await store.recordLocal(recordOf(change));
          queued.push(changeKey(change.id));
        } else frame.push(change);
      }
      await flush();
      // A prefix of what is queued goes in a pack; the server acknowledges it now, or later.
      if (inFlight !== null && random.bool()) {
        await store.acknowledgePack(ROOM, inFlight);
        inFlight = null;
      }
      const packed = inFlight === null ? queued.splice(0, random.int(0, queued.length)) : [];
      if (packed.length > 0) {
        const hex = String(++packs).padStart(64, '0');
        await store.packPlanned({ hex, room: ROOM, replica: own, changeKeys: packed, bytes: new Uint8Array(1) });
        if (random.bool()) await store.acknowledgePack(ROOM, hex);
        else inFlight = hex;
      }
      if (reviewing.length > 0 && random.bool()) {
        await store.releaseHeld(ROOM, reviewing);
        reviewing = [];
      }
      if (random.int(0, 2) === 0) continue;

      const shown = new Set(reviewing);
      const onBoard = all.filter((change) => !shown.has(changeKey(change.id)));
      const full = new Board('main');
      full.applyAll(onBoard);
      const contents = await store.loadRoom(ROOM);
      const plan = compactionPlan(contents);
      const done = await compactRoom(store, ROOM, { force: true });
      const prunedCut = new Map((await store.loadRoom(ROOM)).pruned.map(({ replica, seq }) => [replica, seq]));
      reproducibly(random.seed, () => {
        assert.deepEqual(done?.removed.sort(), [...plan.remove].sort(), `round ${round}: the pass removed what it planned`);
        // What it removed, a page holding everything calls inert within the same cut.
        const passCut = new Map(plan.through.map(({ replica, seq }) => [replica, seq]));
        const fullInert = inertKeys(onBoard.map((change) => ({ change, board: change.board })), passCut);
        for (const key of plan.remove) assert.ok(fullInert.has(key), `round ${round}: ${key} removed, but it still matters`);
      });
      pruned += done?.removed.length ?? 0;
      const compacted = await storedBoard(store);
      reproducibly(random.seed, () => assert.equal(compacted.hash(), full.hash(), `round ${round}: the board changed`));

      // Within any cut the page can stand for past what it left out, it calls inert only what a page holding
      // everything calls inert.
      const left = (await store.loadRoom(ROOM)).changes.filter((change) => !shown.has(change.key)).map((change) => readHeld(change.bytes));
      const cut = cutBetween(random, prunedCut, frontierOf(onBoard));
      const mine = inertKeys(left, cut);
      const theirs = inertKeys(onBoard.map((change) => ({ change, board: change.board })), cut);
      reproducibly(random.seed, () => {
        for (const key of mine) assert.ok(theirs.has(key), `round ${round}: ${key} inert after compacting, not to a page holding everything`);
      });
    }
    // What is held for review is merged, and this tab draws a stroke on the timeline of its key, which
    // signs its snapshot. The snapshot stands for its frontier less what is queued, leaves out what it no
    // longer holds, and a page holding everything takes it.
    await store.releaseHeld(ROOM, reviewing);
    const tab = new Author({ replica: me.replica, now: () => 1_900_000_000_000 });
    for (const change of all) tab.witness(change.stamp);
    const signed = tab.makeChange('main', [add(line(2, 7))]);
    all.push(decodeChange(encodeChange(signed)));
    await store.recordLocal(recordOf(signed));
    await store.packPlanned({ hex: 'ff'.repeat(32), room: ROOM, replica: me.replica, changeKeys: [changeKey(signed.id)], bytes: new Uint8Array(1) });
    await store.acknowledgePack(ROOM, 'ff'.repeat(32));
    const room = await store.loadRoom(ROOM);
    const waiting = new Set([...room.outbox.map((entry) => entry.key), ...room.packs.flatMap((pack) => pack.changeKeys)]);
    const within = frontierOf(all);
    const firstWaiting = Math.min(...[...waiting].map((key) => Number(key.slice(key.lastIndexOf('-') + 1))));
    if (Number.isFinite(firstWaiting)) within.set(own, firstWaiting - 1);
    const heldNow = new Map(room.changes.map((change) => [change.key, { bytes: change.bytes, ...readHeld(change.bytes) }]));
    const made = await makeSnapshot({
      room: ROOM,
      position: 99,
      within,
      needed: 1,
      held: heldNow,
      aside: [],
      author: me.replica,
      own: new Set([own, me.replica]),
      leased: new Set([own, me.replica]),
      waiting,
      signer: me.keys,
      cover: room.cover,
      pruned: room.pruned,
    });
    reproducibly(random.seed, () => assert.equal(made.made, true, `round ${round}: ${made.reason}`));
    if (!made.made) continue;
    const snapshot = await assembled(made.parts);
    const everything = new Map(all.map((change) => [changeKey(change.id), { bytes: encodeChange(change), change, board: change.board }]));
    const verdict = reviewSnapshot(snapshot, {
      held: (key) => everything.get(key)?.bytes,
      holdings: new Map([...everything].map(([key, { change, board }]) => [key, { change, board }])),
      required: within,
      own: new Set(),
      acknowledged: new Set(),
    });
    reproducibly(random.seed, () => assert.equal(verdict.accepted, true, `round ${round}: ${verdict.reason}`));
    // A new page from the snapshot, with what is still to be pushed, shows what this page shows.
    const fromSnapshot = new Board('main');
    fromSnapshot.applyAll([...snapshot.changes.map(decodeChange), ...[...waiting].map((key) => everything.get(key).change)]);
    const whole = new Board('main');
    whole.applyAll(all);
    reproducibly(random.seed, () => assert.equal(fromSnapshot.hash(), whole.hash(), `round ${round}: the snapshot shows another board`));
    held += all.length;
  }
  t.diagnostic(`removed ${pruned} changes over passes on ${held}`);
  assert.ok(pruned > 0, 'random histories settle: something stops mattering');
});
