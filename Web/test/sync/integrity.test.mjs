// The session against packs that are not what they claim and clocks that are wrong: every pack received
// is verified against its room, and one that fails is kept aside with its reason, never drawn; a change
// stamped beyond the protocol's lead waits aside, unapplied and unwitnessed, until the clock catches up;
// a page whose clock runs ahead stamps by the server's, and a push the server finds ahead goes again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeChange } from '../../js/wire/change.js';
import { SyncProtocol } from '../../js/wire/limits.js';
import { encodePack } from '../../js/wire/pack.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { handmadePack } from '../wire/support.mjs';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';

const LEAD = SyncProtocol.maximumStampLeadMilliseconds;
const NOW = 1_800_000_000_000;

const peer = await testAuthor(0x0c);
const mallory = await testAuthor(0x6d);

/** A change of `author`'s drawing a stroke at `x`, stamped `wall` (and `counter`). */
function change(author, seq, x, wall = NOW, counter = 0) {
  return { id: { replica: author.replica, seq }, stamp: { wall, counter }, board: 'main', operations: [stroke(x)] };
}

/** A pack of one change, signed by its author, for `room`. */
function pack(author, seq, x, { room = 'room-1', wall = NOW, counter = 0 } = {}) {
  return encodePack({ room, changes: [change(author, seq, x, wall, counter)] }, author.keys);
}

/** A clock the test moves; `now()` reads it. */
function testClock(start = NOW) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

test('packs that fail verification are kept aside with their reason, never drawn; honest ones apply', async () => {
  const clock = testClock();
  const server = new FakeServer();
  server.now = clock.now;
  const store = new MemoryStore();
  // What a hostile relay (or a log kept from protocol 1) could hand out, between honest packs.
  await server.inject('room-1', await pack(peer, 1, 0));
  const forged = await handmadePack({ room: 'room-1', author: mallory.publicKey, changes: [encodeChange(change(peer, 2, 50))] }, mallory.keys);
  await server.inject('room-1', forged);
  const tampered = (await pack(peer, 3, 60)).slice();
  tampered[tampered.length - 70] ^= 1;
  await server.inject('room-1', tampered);
  await server.inject('room-1', await pack(peer, 4, 70, { room: 'room-2' }));
  await server.inject('room-1', Uint8Array.from([0x0a, 0x10, ...new Uint8Array(16).fill(7)]));
  await server.inject('room-1', await pack(peer, 5, 80));

  const session = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  const refused = [];
  session.addEventListener('refused', (event) => refused.push(...event.detail.reasons));
  await synced(session);
  assert.deepEqual(
    session.board.strokes().map((s) => s.id).sort(),
    [`${peer.replica}-1-0`, `${peer.replica}-5-0`],
    'only the honest changes are on the board',
  );
  assert.deepEqual(refused, ['forgedAuthor', 'badSignature', 'wrongRoom', 'invalidField']);
  assert.deepEqual(session.diagnostics.refusedReasons, { forgedAuthor: 1, badSignature: 1, wrongRoom: 1, invalidField: 1 });
  const room = await store.loadRoom('room-1');
  assert.equal(room.watermark, 6, 'refused packs count as seen: the cursor is not held back');
  assert.deepEqual(room.aside.map((item) => [item.kind, item.reason]), [
    ['pack', 'forgedAuthor'],
    ['pack', 'badSignature'],
    ['pack', 'wrongRoom'],
    ['pack', 'invalidField'],
  ]);
  assert.deepEqual(room.aside[0].bytes, forged, 'kept byte for byte');
  assert.equal(room.changes.length, 2, 'none of their changes were stored');
  await session.close();

  const reloaded = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now, network: offline() });
  assert.equal(reloaded.board.visibleStrokeCount, 2, 'a reload does not decode them either');
  assert.equal((await store.loadRoom('room-1')).aside.length, 4);
  await reloaded.close();
});

test('a change stamped beyond the lead is kept aside, unapplied and unwitnessed, then applied on a later intake', async () => {
  const clock = testClock();
  const server = new FakeServer();
  server.now = clock.now;
  const store = new MemoryStore();
  await server.inject('room-1', await pack(peer, 1, 0));
  await server.inject('room-1', await pack(peer, 2, 10, { wall: NOW + LEAD + 60_000 }));
  const session = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(session);
  assert.equal(session.board.visibleStrokeCount, 1, 'only the change within the lead');
  assert.equal(session.diagnostics.changesAhead, 1);
  const made = session.commit([stroke(100)]);
  assert.ok(made.stamp.wall < NOW + LEAD, `the clock did not jump to the stamp ahead: ${made.stamp.wall - NOW} ms`);
  assert.deepEqual((await store.loadRoom('room-1')).aside.map((item) => item.reason), ['stampAhead']);

  // Two minutes on, another pack arrives: the one that waited is within the lead now.
  clock.time = NOW + 120_000;
  await server.inject('room-1', await pack(peer, 3, 20, { wall: clock.time }));
  await until(() => session.board.visibleStrokeCount === 4, 'the waiting change to be applied');
  assert.equal(session.diagnostics.changesAhead, 0);
  assert.deepEqual((await store.loadRoom('room-1')).aside, [], 'promoted into the store');
  const after = session.commit([stroke(200)]);
  assert.ok(after.stamp.wall >= NOW + LEAD + 60_000, 'witnessed once applied: later changes sort after it');
  await session.close();
});

test('stamps at the top of the range (2^64 − 1) throw nothing and wait aside; reconnecting looks again', async () => {
  const clock = testClock();
  const server = new FakeServer();
  server.now = clock.now;
  const store = new MemoryStore();
  await server.inject('room-1', await pack(peer, 1, 0, { wall: 2 ** 48 - 1, counter: 65535 }));
  await server.inject('room-1', await pack(peer, 2, 10, { wall: NOW + LEAD + 1 }));
  await server.inject('room-1', await pack(peer, 3, 20));
  const session = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now });
  await synced(session);
  assert.deepEqual(session.board.strokes().map((s) => s.id), [`${peer.replica}-3-0`]);
  assert.equal(session.diagnostics.changesAhead, 2);
  const made = session.commit([stroke(5)]);
  assert.ok(made.stamp.wall <= NOW + 1, 'stamps go on from the local clock');

  // A millisecond later the second is due; a reconnection (a welcome) finds it, the first still waits.
  clock.time = NOW + 1;
  const attempts = server.attempts;
  server.crash();
  await until(() => server.attempts > attempts, 'a reconnection');
  await until(() => session.board.visibleStrokeCount === 3, 'the change just past the lead to be applied');
  await synced(session);
  assert.equal(session.diagnostics.changesAhead, 1);
  const room = await store.loadRoom('room-1');
  assert.deepEqual(room.aside.map((item) => item.reason), ['stampAhead']);
  await session.close();

  // Reloaded, the one at the end of time still waits, and the clock is where it was.
  const reloaded = await open({ WebSocket: server.WebSocket, storage: store, now: clock.now, network: offline() });
  assert.equal(reloaded.board.visibleStrokeCount, 3);
  assert.ok(reloaded.commit([stroke(7)]).stamp.wall < NOW + 2 * LEAD);
  await reloaded.close();
});

test('a page whose clock runs an hour ahead stamps by the server’s clock once welcomed', async () => {
  const server = new FakeServer();
  const serverClock = testClock();
  server.now = serverClock.now;
  const local = testClock(NOW + 3_600_000);
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), now: local.now });
  await synced(session);
  const made = session.commit([stroke(0)]);
  assert.ok(Math.abs(made.stamp.wall - NOW) <= 1_000, `stamped ${made.stamp.wall - NOW} ms from the server's time`);
  await synced(session);
  assert.deepEqual(server.refused, [], 'the server took it');
  await session.close();
});

test('a push the server finds stamped ahead stays in the outbox and goes again, the same pack, once accepted', async () => {
  const server = new FakeServer();
  const serverClock = testClock();
  server.now = serverClock.now;
  server.up = false;
  const store = new MemoryStore();
  // Made offline by a page whose clock runs an hour ahead: no welcome yet to correct it.
  const local = testClock(NOW + 3_600_000);
  const session = await open({ WebSocket: server.WebSocket, storage: store, now: local.now });
  session.commit([stroke(0)]);
  server.up = true;
  await until(() => server.refused.length >= 2, 'the push to be refused, and tried again after the backoff');
  assert.ok(server.refused.every((refusal) => refusal.code === 11 && refusal.hex === server.refused[0].hex));
  assert.equal((await store.loadRoom('room-1')).packs.length, 1, 'kept in the outbox meanwhile');
  assert.equal(session.status.state === 'synced', false);
  // The server's clock catches up (or the device's is fixed): the very same pack is stored.
  serverClock.time = NOW + 3_600_000;
  await synced(session, 5_000);
  assert.equal(server.log.get('room-1').length, 1);
  assert.equal(server.log.get('room-1')[0].hex, server.refused[0].hex, 'the same bytes, the same id');
  assert.equal((await store.loadRoom('room-1')).packs.length, 0);
  await session.close();
});

test('a timeline an earlier version made without a key is left alone: the page writes a new, keyed one', async () => {
  const legacy = 'ee'.repeat(16);
  const server = new FakeServer();
  const store = new MemoryStore({ legacyReplicas: [{ room: 'room-1', replica: legacy, lastSeq: 3 }] });
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  assert.notEqual(session.device, legacy);
  const made = session.commit([stroke(0)]);
  assert.equal(made.id.seq, 1, 'a fresh timeline');
  await synced(session);
  assert.equal(server.log.get('room-1').length, 1);
  assert.deepEqual(server.refused, [], 'signed by the timeline’s own key, so the server took it');
  await session.close();
});

/** A network that is down, for reloads that must show the board from the store alone. */
function offline() {
  const network = new EventTarget();
  network.onLine = false;
  return network;
}
