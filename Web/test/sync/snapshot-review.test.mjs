// The rules a room snapshot is held to, without a session: what a connection learns of the log
// (snapshot-tracker.js, as Swift's SnapshotTrackerTests), what the page holds of each timeline
// (frontier.js), and the trust rule (snapshot-review.js, as Swift's SnapshotReviewTests).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeOrigin, encodeChange } from '../../js/wire/change.js';
import { encodeMessage } from '../../js/wire/message.js';
import * as schema from '../../js/wire/schema.js';
import { SnapshotAssembly } from '../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart, encodeSnapshot, encodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { Frontier } from '../../js/sync/frontier.js';
import { readHeld, reviewSnapshot } from '../../js/sync/snapshot-review.js';
import { SnapshotTracker } from '../../js/sync/snapshot-tracker.js';
import { testAuthor } from '../support/keys.mjs';
import { randomFor } from './support/random.mjs';
import { stroke } from './support/sessions.mjs';

const ROOM = 'room-1';
const peer = await testAuthor(0x51);
const other = await testAuthor(0x52);

/** A change of `author`'s, encoded: a stroke at `x`, or the operations given. */
const change = (author, seq, x = seq) => {
  const operations = Array.isArray(x) ? x : [stroke(x)];
  const stamp = { wall: 1_800_000_000_000 + seq, counter: 0 };
  return encodeChange({ id: { replica: author.replica, seq }, stamp, board: 'main', operations });
};

/** The cut of encoded changes: each replica's last seq and its stamp (from changes 1…n of each). */
function cutOf(changes) {
  const cut = new Map();
  for (const [replica, seq] of changes) cut.set(replica.replica, { seq, stamp: { wall: 1_800_000_000_000 + seq, counter: 0 } });
  return cut;
}

/** A whole snapshot of `timelines` ([author, seq] each, holding seqs 1…seq) by `peer`, decoded and assembled. */
async function snapshotOf(timelines, { position = 5, bytes = (author, seq) => change(author, seq) } = {}) {
  const changes = timelines.flatMap(([author, last]) => Array.from({ length: last }, (_, i) => bytes(author, i + 1)));
  const [part] = await encodeSnapshot({ room: ROOM, position, cut: cutOf(timelines), changes, id: new Uint8Array(16).fill(3) }, peer.keys);
  return new SnapshotAssembly(await decodeSnapshotPart(part, { room: ROOM })).assembled();
}

/** The keys of encoded changes, with their bytes. @param {Uint8Array[]} changes */
function byKey(changes) {
  return new Map(changes.map((bytes) => [`${changeOrigin(bytes).replica}-${changeOrigin(bytes).seq}`, bytes]));
}

/** What a page holding `changes` (encoded) tells the review of what it holds. @param {Uint8Array[]} changes */
function holding(changes) {
  const held = byKey(changes);
  return { held: (key) => held.get(key), holdings: new Map([...held].map(([key, bytes]) => [key, readHeld(bytes)])) };
}

/** All a page holding `changes` tells the review; `mine`: its timeline, which it pushes. */
function factsOf(changes, { mine = null, required = new Map() } = {}) {
  const own = new Set(mine === null ? [] : [mine.replica]);
  return { ...holding(changes), required, own, acknowledged: own };
}

/** A snapshot by `peer` holding `changes`, its cut standing for `standingFor` too. */
async function leanSnapshot(changes, standingFor = []) {
  const cut = new Map();
  for (const bytes of [...changes, ...standingFor]) {
    const { replica, seq, stamp } = changeOrigin(bytes);
    if ((cut.get(replica)?.seq ?? 0) < seq) cut.set(replica, { seq, stamp });
  }
  const id = new Uint8Array(16).fill(4);
  const [part] = await encodeSnapshot({ room: ROOM, position: 5, cut, changes, id }, peer.keys);
  return new SnapshotAssembly(await decodeSnapshotPart(part, { room: ROOM })).assembled();
}

test('what a snapshot must hold: what was held at the start when the watermark then was at or before its position, and every pack received through it', () => {
  const tracker = new SnapshotTracker(new Map([[peer.replica, 4]]), 10);
  tracker.received(11, other.replica, 2);
  tracker.received(13, other.replica, 5);
  tracker.received(12, peer.replica, 6);
  assert.deepEqual(tracker.required(9), new Map(), 'before the start: nothing this connection can vouch for');
  assert.deepEqual(tracker.required(10), new Map([[peer.replica, 4]]));
  assert.deepEqual(tracker.required(12), new Map([[peer.replica, 6], [other.replica, 2]]));
  assert.deepEqual(tracker.required(20), new Map([[peer.replica, 6], [other.replica, 5]]));
  tracker.settled(12);
  assert.deepEqual(tracker.required(12), new Map([[peer.replica, 6], [other.replica, 2]]), 'settled: folded into what is held');
  assert.deepEqual(tracker.required(11), new Map(), 'a snapshot older than one taken vouches for nothing held since');
  // A rebase stands in for packs never received: its cut joins what later snapshots must hold.
  tracker.settled(15, new Map([[peer.replica, 9]]));
  assert.deepEqual(tracker.required(15), new Map([[peer.replica, 9], [other.replica, 5]]));
});

test('a rebase is held to the base of this page\'s own timelines alone: the base may hold what live packs brought from after it (seed 14852)', () => {
  // Held through watermark 21: this page's own changes through 4, and another's through 9, 9 from a live pack at 24.
  const tracker = new SnapshotTracker(new Map([[peer.replica, 4], [other.replica, 9]]), 21);
  assert.deepEqual(tracker.required(22), new Map([[peer.replica, 4], [other.replica, 9]]), 'a snapshot in the stream');
  assert.deepEqual(tracker.required(22, new Set([peer.replica])), new Map([[peer.replica, 4]]), 'a rebase');
  tracker.received(22, other.replica, 8);
  assert.deepEqual(tracker.required(22, new Set([peer.replica])), new Map([[peer.replica, 4], [other.replica, 8]]));
  assert.deepEqual(tracker.required(20, new Set([peer.replica])), new Map(), 'before the watermark: nothing');
});

test('parts gather in any order, a repeat is no news, a sibling that disagrees is refused and its snapshot goes on', async () => {
  const changes = [change(peer, 1), change(peer, 2), change(peer, 3)];
  const cut = cutOf([[peer, 3]]);
  const id = new Uint8Array(16).fill(9);
  const parts = await encodeSnapshot({ room: ROOM, position: 4, cut, changes, id }, peer.keys, { partBodyBytes: 1 });
  assert.equal(parts.length, 3);
  const decoded = await Promise.all(parts.map((bytes) => decodeSnapshotPart(bytes, { room: ROOM })));
  const tracker = new SnapshotTracker(new Map(), 0);
  assert.equal(tracker.add(decoded[2], 7, 100), null);
  assert.equal(tracker.add(decoded[2], 8, 100), null, 'a repeat');
  const liar = await decodeSnapshotPart(await encodeSnapshotPart({ room: ROOM, cover: { id, position: 5, cut, part: 0, parts: 3 }, changes: [changes[0]] }, peer.keys), { room: ROOM });
  assert.throws(() => tracker.add(liar, 9, 100), (error) => error.code === 'invalidSnapshot' && /disagree/.test(error.message));
  assert.equal(tracker.add(decoded[0], 10, 100), null);
  const whole = tracker.add(decoded[1], 11, 100);
  assert.deepEqual(whole.positions, [7, 10, 11]);
  assert.deepEqual(whole.assembly.assembled().changes, changes);
  assert.equal(tracker.pendingBytes, 0, 'forgotten once whole');
});

test('a flood of unfinished parts is bounded: past the bound every unfinished snapshot goes (seeded)', async (t) => {
  const random = randomFor(t);
  const bound = 5_000;
  const tracker = new SnapshotTracker(new Map(), 0, { maximumPendingBytes: bound });
  let dropped = 0;
  for (let i = 0; i < 60; i++) {
    const id = Uint8Array.from({ length: 16 }, () => random.int(0, 255));
    const bytes = await encodeSnapshotPart({ room: ROOM, cover: { id, position: 3, cut: cutOf([[peer, 2]]), part: 0, parts: 2 }, changes: [change(peer, 1)] }, peer.keys);
    try {
      assert.equal(tracker.add(await decodeSnapshotPart(bytes, { room: ROOM }), i + 1, bytes.length), null);
    } catch (error) {
      assert.equal(error.code, 'tooLarge');
      dropped += 1;
    }
    assert.ok(tracker.pendingBytes <= bound, `${tracker.pendingBytes} bytes pending`);
  }
  assert.ok(dropped > 0);
});

test('the frontier: each timeline held through the seq before its first gap', () => {
  const frontier = new Frontier();
  for (const seq of [1, 2, 4, 5]) frontier.add({ replica: peer.replica, seq });
  frontier.add({ replica: other.replica, seq: 3 });
  assert.deepEqual(frontier.vector(), new Map([[peer.replica, 2]]));
  frontier.add({ replica: peer.replica, seq: 3 });
  frontier.add({ replica: peer.replica, seq: 2 });
  assert.equal(frontier.through(peer.replica), 5);
  assert.equal(frontier.through(other.replica), 0);
  // What the store stands for without holding it (left out as inert, or on a snapshot's word) fills gaps.
  frontier.cover(other.replica, 2);
  assert.equal(frontier.through(other.replica), 3, 'the change past the gap joins');
  frontier.cover(other.replica, 1);
  assert.equal(frontier.through(other.replica), 3, 'never moved back');
  frontier.add({ replica: other.replica, seq: 9 });
  frontier.cover(other.replica, 10);
  frontier.add({ replica: other.replica, seq: 11 });
  assert.equal(frontier.through(other.replica), 11);
});

test('the trust rule: the same bytes for every change held, nothing left out, nothing of this page’s it never made', async () => {
  const snapshot = await snapshotOf([[peer, 2], [other, 1]]);
  const facts = factsOf([change(peer, 1)], { required: new Map([[peer.replica, 2]]) });
  const taken = reviewSnapshot(snapshot, facts);
  assert.equal(taken.accepted, true);
  assert.deepEqual(taken.fresh.map((fresh) => fresh.key), [`${peer.replica}-2`, `${other.replica}-1`], 'what was not held, as the snapshot carries it');

  const altered = reviewSnapshot(snapshot, { ...facts, held: (key) => (key === `${peer.replica}-1` ? change(peer, 1, 99) : undefined) });
  assert.equal(altered.accepted, false);
  assert.match(altered.reason, /differs from the one held here/);

  const short = reviewSnapshot(snapshot, { ...facts, required: new Map([[peer.replica, 3]]) });
  assert.match(short.reason, /leaves out changes of .* up to 3 that came before its position/);
  assert.deepEqual(short.missingOwn, [], 'not this page’s');

  // This page is `other`: its change 1 is in the snapshot, but it never made one.
  const forged = reviewSnapshot(snapshot, { ...facts, own: new Set([other.replica]) });
  assert.match(forged.reason, /a change of this device that this device never made/);
  // It made it, and its store left it out since (Swift's `ownMade`): nothing to compare, nothing new.
  const madeHere = reviewSnapshot(snapshot, { ...facts, own: new Set([other.replica]), ownMade: new Map([[other.replica, 1]]) });
  assert.equal(madeHere.accepted, true, madeHere.reason);
  assert.deepEqual(madeHere.fresh.map((fresh) => fresh.key), [`${peer.replica}-2`]);

  // This page is `other`, and the server acknowledged its changes 1 to 3: 2 and 3 go back to the outbox.
  const mine = factsOf([change(peer, 1), change(other, 1)], { mine: other, required: facts.required });
  const leftOut = reviewSnapshot(snapshot, { ...mine, required: new Map([[other.replica, 3]]) });
  assert.equal(leftOut.accepted, false);
  assert.deepEqual(leftOut.missingOwn, [`${other.replica}-2`, `${other.replica}-3`]);
  assert.equal(reviewSnapshot(snapshot, mine).accepted, true);
});

test('a snapshot may leave out only what stopped mattering here; own work that still matters goes back', async () => {
  // Peer's stroke, undone and settled, stopped mattering; this page (`other`) drew two strokes.
  const drawn = change(peer, 1);
  const undone = change(peer, 2, [{ op: 'undo', change: { replica: peer.replica, seq: 1 } }]);
  const settled = change(peer, 3, [{ op: 'settle', through: 2, inactive: [1] }]);
  const mine = [change(other, 1), change(other, 2)];
  const facts = factsOf([drawn, undone, settled, ...mine], { mine: other });

  const lean = reviewSnapshot(await leanSnapshot([settled, ...mine], [drawn, undone]), facts);
  assert.equal(lean.accepted, true, lean.reason);
  assert.deepEqual(lean.fresh, []);
  assert.deepEqual(lean.leftOut, [`${peer.replica}-1`, `${peer.replica}-2`]);

  const lying = reviewSnapshot(await leanSnapshot([drawn, undone, settled, mine[0]], [mine[1]]), facts);
  assert.equal(lying.accepted, false);
  assert.equal(lying.reason, `it leaves out ${other.replica}-2, which still matters here`);
  assert.deepEqual(lying.missingOwn, [`${other.replica}-2`], 'this page’s stroke goes back out');
});

test('a page that holds a stroke deleted while it was away learns from the deletion the snapshot keeps', async () => {
  const drawn = change(peer, 1);
  const deleted = change(peer, 2, [{ op: 'set', stroke: `${peer.replica}-1-0`, attribute: 'deleted', value: true }]);
  const settled = change(peer, 3, [{ op: 'settle', through: 2, inactive: [] }]);
  const facts = factsOf([drawn]);
  const kept = reviewSnapshot(await leanSnapshot([deleted, settled], [drawn]), facts);
  assert.equal(kept.accepted, true, kept.reason);
  assert.deepEqual(kept.leftOut, [`${peer.replica}-1`]);
  assert.deepEqual(kept.fresh.map((fresh) => fresh.key), [`${peer.replica}-2`, `${peer.replica}-3`]);

  // Without the deletion, nothing here says the stroke stopped mattering.
  const proofless = reviewSnapshot(await leanSnapshot([settled], [drawn, deleted]), facts);
  assert.equal(proofless.reason, `it leaves out ${peer.replica}-1, which still matters here`);
});

test('a change the page cannot read never stops mattering; a board with one of a newer schema keeps all', async () => {
  const drawn = change(peer, 1);
  const undone = change(peer, 2, [{ op: 'undo', change: { replica: peer.replica, seq: 1 } }]);
  const settled = change(peer, 3, [{ op: 'settle', through: 2, inactive: [1] }]);
  const replica = Uint8Array.from(Buffer.from(other.replica, 'hex'));
  const wire = { replica, seq: 1, stamp: 1n << 16n, board: 'log', operations: [] };
  const otherType = encodeMessage(schema.Change, { ...wire, schemaVersion: 1, type: 'foodlog' });
  assert.deepEqual(readHeld(otherType), { change: null, board: null });
  /** Reviews a snapshot holding `settled` and `extra` (or leaving it out), by a page that holds all four. */
  const review = async (extra, { holds = true } = {}) => {
    const lean = holds ? [[settled, extra], [drawn, undone]] : [[settled], [drawn, undone, extra]];
    return reviewSnapshot(await leanSnapshot(...lean), factsOf([drawn, undone, settled, extra]));
  };
  const aside = await review(otherType, { holds: false });
  assert.equal(aside.reason, `it leaves out ${other.replica}-1, which still matters here`, 'a change of another type');

  const newer = encodeMessage(schema.Change, { ...wire, board: 'main', schemaVersion: 99 });
  assert.deepEqual(readHeld(newer), { change: null, board: 'main' });
  assert.equal((await review(newer)).reason, `it leaves out ${peer.replica}-1, which still matters here`);
  const elsewhere = encodeMessage(schema.Change, { ...wire, board: 'other', schemaVersion: 99 });
  assert.equal((await review(elsewhere)).accepted, true, 'a newer change of another board keeps only that board whole');
});
