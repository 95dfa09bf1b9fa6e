// Making the room snapshot a page sends (snapshot-maker.js), as Swift's `SyncClient.makeSnapshot`: its cut
// is what came through its position, it holds what still matters there, its parts verify and assemble as
// any device reads them, and every device that holds the room takes it; it is made only from the room's
// whole history, so it never leaves out a change the page holds that still matters. Seeded: INKWELL_SEED
// reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { changeKey } from '../../js/model/ids.js';
import { inertKeys } from '../../js/sync/room-inert.js';
import { keptForLater, makeSnapshot } from '../../js/sync/snapshot-maker.js';
import { readHeld, reviewSnapshot } from '../../js/sync/snapshot-review.js';
import { toHex } from '../../js/wire/bytes.js';
import { changeOrigin, decodeChange, encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { newRoomKeyBytes, openRoomKey } from '../../js/wire/room-key.js';
import { SnapshotAssembly } from '../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { add, line } from '../model/support/authors.mjs';
import { reproducibly } from '../model/support/random.mjs';
import { ReplicaSession } from '../model/support/replica-session.mjs';
import { testAuthor } from '../support/keys.mjs';
import { randomFor } from './support/random.mjs';

const ROOM = 'room-1';
const me = await testAuthor(0x71);
const peer = await testAuthor(0x72);
const other = await testAuthor(0x73);

/** A model author writing `who`'s timeline, on a clock of its own. */
function writer(who, start = 1_700_000_000_000) {
  let wall = start;
  return new Author({ replica: who.replica, now: () => ++wall });
}

/** What a page holds of encoded changes: by key, with their bytes and JSON form. @param {Uint8Array[]} changes */
function holding(changes) {
  return new Map(changes.map((bytes) => {
    const { replica, seq } = changeOrigin(bytes);
    return [`${replica}-${seq}`, { bytes, ...readHeld(bytes) }];
  }));
}

/** The same holding, as a receiver's review reads it. @param {Map<string, any>} held */
const holdings = (held) => new Map([...held].map(([key, { change, board }]) => [key, { change, board }]));

/** The whole snapshot its parts make, as a receiver assembles it. @param {Uint8Array[]} parts */
async function assembled(parts, roomKey = null) {
  const read = await Promise.all(parts.map((part) => decodeSnapshotPart(part, { room: ROOM, roomKey })));
  const assembly = new SnapshotAssembly(read[0]);
  for (const part of read.slice(1)) assembly.add(part);
  return assembly.assembled();
}

/**
 * Peer's history, in which its first stroke stopped mattering (cleared, and the clear settled), and this
 * page's stroke: what a page holds after both were pushed.
 */
function history() {
  const peerWriter = writer(peer);
  const board = new Board('main');
  const made = (author, operations) => {
    const change = author.makeChange(board, operations);
    board.apply(change);
    return change;
  };
  const drawn = made(peerWriter, [add(line(4))]);
  const clear = made(peerWriter, [{ op: 'clear' }]);
  const settle = made(peerWriter, [{ op: 'settle', through: 2, inactive: [] }]);
  const mine = writer(me, 1_700_000_001_000);
  mine.witness(settle.stamp);
  const own = made(mine, [add(line(3, 40))]);
  return { drawn, clear, settle, own, mine, board, encoded: [drawn, clear, settle, own].map(encodeChange) };
}

/** What makeSnapshot is given for `held`, standing for position 7, unless told otherwise. */
const request = (held, more = {}) => ({
  room: ROOM,
  position: 7,
  within: new Map([[peer.replica, 3], [me.replica, 1]]),
  needed: 1,
  held,
  aside: [],
  author: me.replica,
  own: new Set([me.replica]),
  leased: new Set([me.replica]),
  waiting: new Set(),
  signer: me.keys,
  ...more,
});

test('a snapshot stands for what came through its position and holds what still matters there', async () => {
  const { drawn, encoded } = history();
  const held = holding(encoded);
  const made = await makeSnapshot(request(held));
  assert.equal(made.made, true, made.reason);
  assert.equal(made.changes, 4, 'its cut stands for every change');
  assert.equal(made.held, 3, 'the cleared stroke is left out');
  const snapshot = await assembled(made.parts);
  assert.equal(snapshot.author, me.replica);
  assert.equal(snapshot.position, 7);
  assert.deepEqual([...snapshot.cut].map(([replica, { seq }]) => [replica, seq]).sort(), [[peer.replica, 3], [me.replica, 1]].sort());
  assert.equal(snapshot.keys.includes(changeKey(drawn.id)), false);
  assert.deepEqual(snapshot.changes.map(toHex).sort(), encoded.filter((_, i) => i !== 0).map(toHex).sort(), 'held byte for byte');

  // A device holding everything checks what it leaves out by its own rule; a new one takes it as it is.
  const review = (facts) => reviewSnapshot(snapshot, { held: (key) => facts.get(key)?.bytes, holdings: holdings(facts), required: new Map([[peer.replica, 3]]), own: new Set(), acknowledged: new Set() });
  const everything = review(held);
  assert.equal(everything.accepted, true, everything.reason);
  assert.deepEqual(everything.leftOut, [changeKey(drawn.id)]);
  assert.equal(review(new Map()).accepted, true);
  // The board it draws is the whole history's.
  const from = new Board('main');
  from.applyAll(snapshot.changes.map(decodeChange));
  const whole = new Board('main');
  whole.applyAll(encoded.map(decodeChange));
  assert.equal(from.hash(), whole.hash());
});

test('none is made from less than the room’s whole history, each time saying why', async () => {
  const { encoded, mine, board } = history();
  const held = holding(encoded);
  const later = encodeChange(mine.makeChange(board, [add(line(2, 90))]));
  const peerLater = encodeChange({ ...decodeChange(encoded[2]), id: { replica: peer.replica, seq: 4 }, operations: [add(line(2, 70))] });
  const cases = [
    ['fewer changes than due', request(held, { needed: 5 }), /its cut stands for 4 changes, fewer than the 5 due/],
    ['a change of the cut missing', request(holding(encoded.filter((_, i) => i !== 1))), /lacks changes the cut stands for/],
    ['another’s change past the cut', request(holding([...encoded, peerLater])), /holds .*-4, past what the cut stands for/],
    ['its own change past the cut, acknowledged', request(holding([...encoded, later])), /holds .*-2, past what the cut stands for/],
    ['its own timeline not in the cut yet', request(held, { within: new Map([[peer.replica, 3]]), waiting: new Set([`${me.replica}-1`]) }), /own timeline is not in the cut yet/],
    ['a pack kept for a newer version', request(held, { aside: [{ room: ROOM, kind: 'pack', schemaVersion: 2, bytes: new Uint8Array(1) }] }), /keeps aside/],
    ['a change stamped ahead', request(held, { aside: [{ room: ROOM, kind: 'change', schemaVersion: 1, bytes: later, reason: 'stampAhead' }] }), /keeps aside/],
    ['a change of a newer schema', request(held, { aside: [{ room: ROOM, kind: 'change', schemaVersion: 9, bytes: later }] }), /keeps aside/],
  ];
  for (const [name, asked, reason] of cases) {
    const made = await makeSnapshot(asked);
    assert.equal(made.made, false, name);
    assert.match(made.reason, reason, name);
  }
  // Its own change not yet acknowledged is still to be pushed: it waits outside the cut.
  const waiting = await makeSnapshot(request(holding([...encoded, later]), { waiting: new Set([`${me.replica}-2`]) }));
  assert.equal(waiting.made, true, waiting.reason);
  assert.equal((await assembled(waiting.parts)).keys.includes(`${me.replica}-2`), false);
  // A pack that failed verification is no part of the room's history; nor is it something to wait for.
  const forged = await makeSnapshot(request(held, { aside: [{ room: ROOM, kind: 'pack', schemaVersion: 1, bytes: new Uint8Array(1), reason: 'badSignature' }] }));
  assert.equal(forged.made, true, forged.reason);
});

test('what may be kept aside while the page sends a snapshot: a forged pack, another type’s change', () => {
  const bytes = new Uint8Array(1);
  assert.equal(keptForLater({ room: ROOM, kind: 'pack', schemaVersion: 1, bytes, reason: 'forgedAuthor' }), false);
  assert.equal(keptForLater({ room: ROOM, kind: 'change', schemaVersion: 0, bytes }), false);
  assert.equal(keptForLater({ room: ROOM, kind: 'pack', schemaVersion: 1, bytes }), true, 'sealed before the key');
  assert.equal(keptForLater({ room: ROOM, kind: 'change', schemaVersion: 1, bytes, reason: 'stampAhead' }), true);
  assert.equal(keptForLater({ room: ROOM, kind: 'change', schemaVersion: 2, bytes }), true);
});

test('a timeline of this browser another tab writes is stood for as far as the page holds it whole', async () => {
  const { encoded, board } = history();
  const tab = writer(other, 1_700_000_002_000);
  const theirs = [1, 2, 3].map(() => {
    const change = tab.makeChange(board, [add(line(2, 10))]);
    board.apply(change);
    return encodeChange(change);
  });
  const asked = { own: new Set([me.replica, other.replica]), leased: new Set([me.replica]) };
  const made = await makeSnapshot(request(holding([...encoded, ...theirs]), asked));
  assert.equal(made.made, true, made.reason);
  assert.equal(made.cut.get(other.replica)?.seq, 3);
  assert.equal((await assembled(made.parts)).keys.filter((key) => key.startsWith(other.replica)).length, 3);
  // Past a gap it is not whole, and the page holds what the cut cannot stand for.
  const gap = await makeSnapshot(request(holding([...encoded, theirs[0], theirs[2]]), asked));
  assert.equal(gap.made, false);
  assert.match(gap.reason, new RegExp(`holds ${other.replica}-3, past what the cut stands for`));
});

test('parts hold at most the body size each, all signed alike; in an encrypted room they are sealed', async () => {
  const { encoded } = history();
  const roomKey = await openRoomKey(newRoomKeyBytes());
  const made = await makeSnapshot(request(holding(encoded), { roomKey, partBodyBytes: 60 }));
  assert.equal(made.made, true, made.reason);
  assert.equal(made.parts.length, 3, 'one change a part');
  await assert.rejects(decodeSnapshotPart(made.parts[0], { room: ROOM }), (error) => error instanceof WireError && error.code === 'encrypted');
  const snapshot = await assembled(made.parts, roomKey);
  assert.equal(snapshot.changes.length, 3);
  const parts = await Promise.all(made.parts.map((part) => decodeSnapshotPart(part, { room: ROOM, roomKey })));
  assert.deepEqual(parts.map((part) => [part.cover.part, part.cover.parts, part.sealed, part.replica]), [0, 1, 2].map((i) => [i, 3, true, me.replica]));
  assert.equal(new Set(parts.map((part) => toHex(part.cover.id))).size, 1, 'one id');
});

test('over random histories: a snapshot leaves out only what stopped mattering, and every holder takes it (seeded)', async (t) => {
  const random = randomFor(t);
  let left = 0;
  let stood = 0;
  for (let round = 0; round < 6; round++) {
    const session = new ReplicaSession(random, 3);
    session.run(300);
    // The page's own timeline: a few strokes after all it heard, some acknowledged, the rest still queued.
    const mine = writer(me, 1_900_000_000_000);
    const board = new Board('main');
    board.applyAll(session.changes);
    const own = Array.from({ length: random.int(1, 6) }, () => {
      const change = mine.makeChange(board, [add(line(random.int(1, 5), random.int(0, 99)))]);
      board.apply(change);
      return change;
    });
    const acknowledged = random.int(1, own.length);
    const all = [...session.changes, ...own];
    const held = holding(all.map(encodeChange));
    const within = new Map(session.replicas.map(({ author }) => [author.replica, author.seq]));
    within.set(me.replica, acknowledged);
    const waiting = new Set(own.slice(acknowledged).map((change) => changeKey(change.id)));
    const made = await makeSnapshot(request(held, { within, waiting }));
    reproducibly(random.seed, () => assert.equal(made.made, true, made.reason));
    const snapshot = await assembled(made.parts);
    const inSnapshot = new Set(snapshot.keys);
    const inert = inertKeys(held.values(), within);
    reproducibly(random.seed, () => {
      for (const key of held.keys()) {
        const { replica, seq } = changeOrigin(held.get(key).bytes);
        const inside = seq <= (within.get(replica) ?? 0);
        if (!inside) assert.ok(waiting.has(key) && !inSnapshot.has(key), `round ${round}: ${key} outside the cut`);
        else assert.ok(inSnapshot.has(key) !== inert.has(key), `round ${round}: ${key} held ${inSnapshot.has(key)}, inert ${inert.has(key)}`);
      }
      // What it holds, with what is still to be pushed, draws the whole history, now and after more changes.
      const rest = [...held.keys()].filter((key) => !inSnapshot.has(key) && waiting.has(key)).map((key) => held.get(key).change);
      const compacted = new Board('main');
      compacted.applyAll([...snapshot.changes.map(decodeChange), ...rest]);
      assert.equal(compacted.hash(), board.hash(), `round ${round}: the drawing changed`);
      const review = reviewSnapshot(snapshot, { held: (key) => held.get(key)?.bytes, holdings: holdings(held), required: within, own: new Set(), acknowledged: new Set() });
      assert.equal(review.accepted, true, `round ${round}: ${review.reason}`);
    });
    session.run(100);
    const later = session.changes.slice(all.length - own.length);
    const after = new Board('main');
    after.applyAll([...snapshot.changes.map(decodeChange), ...own.slice(acknowledged), ...later]);
    const full = new Board('main');
    full.applyAll([...all, ...later]);
    reproducibly(random.seed, () => assert.equal(after.hash(), full.hash(), `round ${round}: a later change showed what was left out`));
    left += made.changes - made.held;
    stood += made.changes;
  }
  t.diagnostic(`left out ${left} of the ${stood} changes the snapshots stood for`);
  assert.ok(left > 0, 'random histories settle: something stops mattering');
});

test('a change the store stands for without holding it is accounted for: left out by its compaction, or by a snapshot it took', async () => {
  const { drawn, settle, own, encoded } = history();
  const whole = await makeSnapshot(request(holding(encoded)));
  // This page left peer's cleared stroke out of its store, within the cut it recorded.
  const lean = holding(encoded.filter((_, i) => i !== 0));
  const lacking = await makeSnapshot(request(lean));
  assert.deepEqual([lacking.made, lacking.reason], [false, 'the page lacks changes the cut stands for']);
  const pruned = [
    { replica: peer.replica, seq: 3, stamp: settle.stamp },
    { replica: me.replica, seq: 1, stamp: own.stamp },
  ];
  const made = await makeSnapshot(request(lean, { pruned }));
  assert.equal(made.made, true, made.reason);
  assert.deepEqual([made.changes, made.held], [whole.changes, whole.held]);
  assert.deepEqual(made.cut, whole.cut, 'the same cut, stamps included');
  const snapshot = await assembled(made.parts);
  assert.deepEqual(snapshot.keys, (await assembled(whole.parts)).keys, 'the same changes');
  const everything = holding(encoded);
  const review = reviewSnapshot(snapshot, { held: (key) => everything.get(key)?.bytes, holdings: holdings(everything), required: request(lean).within, own: new Set(), acknowledged: new Set() });
  assert.equal(review.accepted, true, review.reason);
  assert.deepEqual(review.leftOut, [changeKey(drawn.id)]);
  // The same, taken on a room snapshot's word: what it stands for counts, as far as it goes.
  const covered = await makeSnapshot(request(lean, { cover: [{ replica: peer.replica, seq: 1, stamp: drawn.stamp }] }));
  assert.equal(covered.made, true, covered.reason);
  assert.equal((await makeSnapshot(request(holding(encoded.slice(2)), { cover: [{ replica: peer.replica, seq: 1, stamp: drawn.stamp }] }))).reason, 'the page lacks changes the cut stands for', 'the clear is neither held nor stood for');
});

test('none while its cut does not stand for all the page left out: a change inert only given later ones would be lost', async () => {
  const { encoded, settle, own } = history();
  const pruned = [
    { replica: peer.replica, seq: 4, stamp: settle.stamp },
    { replica: me.replica, seq: 1, stamp: own.stamp },
  ];
  const made = await makeSnapshot(request(holding(encoded.filter((_, i) => i !== 0)), { pruned }));
  assert.deepEqual([made.made, made.reason], [false, 'the page left out changes past what its cut stands for']);
});

test('a timeline whose last change in the cut is not held takes the latest stamp held of it, else the store’s when it stands exactly that far, else zero', async () => {
  const { drawn, clear, settle, encoded } = history();
  const ownOnly = holding([encoded[3]]);
  const stamp = async (held, cover) => {
    const made = await makeSnapshot(request(held, { cover }));
    assert.equal(made.made, true, made.reason);
    return made.cut.get(peer.replica)?.stamp;
  };
  const word = { wall: settle.stamp.wall + 5, counter: 0 };
  assert.deepEqual(await stamp(ownOnly, [{ replica: peer.replica, seq: 3, stamp: word }]), word, 'none held: the stamp the store keeps');
  assert.deepEqual(await stamp(holding([encoded[0], encoded[3]]), [{ replica: peer.replica, seq: 3, stamp: word }]), drawn.stamp, 'the latest held within the cut');
  assert.deepEqual(await stamp(holding([encoded[1], encoded[3]]), [{ replica: peer.replica, seq: 3, stamp: word }]), clear.stamp);
  assert.deepEqual(await stamp(ownOnly, [{ replica: peer.replica, seq: 5, stamp: word }]), { wall: 0, counter: 0 }, 'standing further than the cut: zero');
});
