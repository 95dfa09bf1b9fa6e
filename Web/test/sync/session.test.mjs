// The session against an in-process fake server: local-first storage, reconnection, acks lost and
// repeated, versions refused, presence. (integration.test.mjs runs against the real server.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { encodeMessage } from '../../js/wire/message.js';
import * as schema from '../../js/wire/schema.js';
import { fromHex } from '../../js/wire/bytes.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, TestNetwork, until } from './support/sessions.mjs';

/** The change ids the fake server holds for a room, decoded from its packs. */
async function serverChanges(server, room = 'room-1') {
  const ids = [];
  for (const { pack } of server.log.get(room) ?? []) {
    for (const bytes of (await decodePack(pack, { room })).changes) {
      const change = decodeChange(bytes);
      ids.push(`${change.id.replica}-${change.id.seq}`);
    }
  }
  return ids.sort();
}

test('a reload while the server is down shows the board, and the edits sync when it comes back', async () => {
  const server = new FakeServer();
  server.up = false;
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const changes = [first.commit([stroke(0)]), first.commit([stroke(10)]), first.commit([stroke(20)])];
  assert.ok(first.status.bytesToUpload > 0, 'the edits wait to upload');
  assert.notEqual(first.status.state, 'synced');
  const hash = first.board.hash();
  await first.close();

  const reloaded = await open({ WebSocket: server.WebSocket, storage: store });
  assert.equal(reloaded.device, first.device, 'the same timeline after a reload');
  assert.equal(reloaded.board.hash(), hash, 'the board is loaded from the store');
  assert.equal(reloaded.board.visibleStrokeCount, 3);
  assert.ok(reloaded.status.bytesToUpload > 0);
  server.up = true;
  await synced(reloaded);
  assert.deepEqual(await serverChanges(server), changes.map((c) => `${c.id.replica}-${c.id.seq}`).sort());
  assert.equal(reloaded.status.bytesToUpload, 0);
  assert.equal(reloaded.commit([stroke(30)]).id.seq, 4, 'seqs go on after the reload');
  await reloaded.close();
});

test('two sessions converge through the server, and hear of each other’s changes', async () => {
  const server = new FakeServer();
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Alice' });
  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Bob' });
  const remote = [];
  bob.addEventListener('change', (event) => {
    if (event.detail.origin === 'remote') remote.push(...event.detail.changes);
  });
  await Promise.all([synced(alice), synced(bob)]);
  for (let i = 0; i < 5; i++) alice.commit([stroke(i * 10)]);
  const erased = bob.commit([stroke(100)]);
  bob.commit([{ op: 'erase', stroke: `${erased.id.replica}-${erased.id.seq}-0`, intervals: [[0, 1]] }]);
  await until(() => alice.board.changeCount === 7 && bob.board.changeCount === 7, 'both to hold every change');
  await Promise.all([synced(alice), synced(bob)]);
  assert.equal(alice.board.hash(), bob.board.hash());
  assert.equal(remote.length, 5);
  await alice.close();
  await bob.close();
});

test('a pack whose ack was lost is pushed again under the same id, and the server keeps it once', async () => {
  const server = new FakeServer();
  server.acking = false;
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  first.commit([stroke(0)]);
  first.commit([stroke(5)]);
  await until(() => server.pushes.length === 1, 'the push');
  await first.close();

  server.acking = true;
  server.up = false;
  const reloaded = await open({ WebSocket: server.WebSocket, storage: store });
  reloaded.commit([stroke(10)]);
  server.up = true;
  await synced(reloaded);
  assert.equal(server.pushes[1].hex, server.pushes[0].hex, 'the very same pack again');
  assert.equal(server.log.get('room-1').length, 2, 'the old pack once, the new edit in a pack of its own');
  assert.equal((await serverChanges(server)).length, 3);
  await reloaded.close();
});

test('a restarted session subscribes from its watermark and downloads only what is new', async () => {
  const server = new FakeServer();
  const other = await testAuthor(0x0c);
  const packs = [];
  for (let seq = 1; seq <= 5; seq++) {
    const change = { id: { replica: other.replica, seq }, stamp: { wall: 1_000 + seq, counter: 0 }, board: 'main', operations: [stroke(seq)] };
    packs.push(await encodePack({ room: 'room-1', changes: [change] }, other.keys));
  }
  for (const pack of packs.slice(0, 3)) await server.inject('room-1', pack);
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  await synced(first);
  assert.equal(first.board.visibleStrokeCount, 3);
  await first.close();
  for (const pack of packs.slice(3)) await server.inject('room-1', pack);

  const downloads = [];
  const again = await open({ WebSocket: server.WebSocket, storage: store });
  again.addEventListener('status', (event) => downloads.push(event.detail.bytesToDownload));
  assert.equal(again.board.visibleStrokeCount, 3, 'shown before any network');
  await synced(again);
  assert.deepEqual(server.subscribes.map((s) => s.after), [0, 3]);
  assert.equal(again.board.visibleStrokeCount, 5);
  assert.ok(Math.max(...downloads) <= packs[3].length + packs[4].length, 'only the two new packs were behind');
  await again.close();
});

test('a server that refuses this version: its message is shown and the session stops reconnecting', async () => {
  const server = new FakeServer();
  server.refuseVersion = 'this server speaks protocol versions 2 to 3: please update the app';
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore() });
  await until(() => session.status.detail.includes('please update the app'), 'the refusal');
  assert.equal(session.status.state, 'offline');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(server.attempts, 1, 'no reconnection');
  session.commit([stroke(0)]);
  assert.ok(session.status.bytesToUpload > 0, 'edits are still kept');
  await session.close();
});

test('a crashed connection is opened again after the backoff, and nothing is lost', async () => {
  const server = new FakeServer();
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore() });
  await synced(session);
  server.crash();
  session.commit([stroke(0)]);
  await until(() => server.attempts >= 2, 'a reconnection');
  await synced(session);
  assert.equal((await serverChanges(server)).length, 1);
  await session.close();
});

test('the browser going offline closes the connection at once; coming online reconnects now', async () => {
  const server = new FakeServer();
  const network = new TestNetwork();
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), network, backoff: { minimum: 60_000, maximum: 60_000 } });
  await synced(session);
  network.goOffline();
  await until(() => session.status.state === 'offline', 'offline');
  assert.match(session.status.detail, /offline/);
  session.commit([stroke(0)]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(server.pushes.length, 0, 'nothing is sent while offline');
  network.goOnline();
  await synced(session, 2_000);
  assert.equal(server.pushes.length, 1, 'online again: pushed without waiting for the minute of backoff');
  await session.close();
});

test('two tabs of one room write two timelines; a reload takes its own back', async () => {
  const store = new MemoryStore();
  const server = new FakeServer();
  server.up = false;
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const second = await open({ WebSocket: server.WebSocket, storage: store });
  assert.notEqual(first.device, second.device);
  const a = first.commit([stroke(0)]);
  const b = second.commit([stroke(0)]);
  assert.notEqual(`${a.id.replica}-${a.id.seq}`, `${b.id.replica}-${b.id.seq}`);
  await first.close();
  const third = await open({ WebSocket: server.WebSocket, storage: store });
  assert.equal(third.device, first.device);
  assert.equal(third.commit([stroke(1)]).id.seq, 2);
  assert.equal(third.board.changeCount, 3, 'the other tab’s stored change shows after the reload too');
  await second.close();
  await third.close();
});

test('a tab closed with edits still queued has them pushed by the next tab', async () => {
  const store = new MemoryStore();
  const server = new FakeServer();
  server.up = false;
  const keeper = await open({ WebSocket: server.WebSocket, storage: store });
  const leaver = await open({ WebSocket: server.WebSocket, storage: store });
  leaver.commit([stroke(0)]);
  await leaver.close();
  // `keeper` holds the first timeline, so the newcomer takes over the leaver's.
  const newcomer = await open({ WebSocket: server.WebSocket, storage: store });
  server.up = true;
  await synced(newcomer);
  assert.deepEqual(await serverChanges(server), [`${leaver.device}-1`]);
  await keeper.close();
  await newcomer.close();
});

test('undo and redo are this user’s, and their history survives a reload', async () => {
  const store = new MemoryStore();
  const server = new FakeServer();
  server.up = false;
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  assert.equal(first.undo(), null);
  assert.equal(first.undoReachedItsEnd, false, 'nothing to undo, and nothing drawn');
  first.commit([stroke(0)]);
  const second = first.commit([stroke(10)]);
  const undo = first.undo();
  assert.deepEqual(undo.operations, [{ op: 'undo', change: second.id }]);
  assert.equal(first.board.visibleStrokeCount, 1);
  await first.close();
  const reloaded = await open({ WebSocket: server.WebSocket, storage: store });
  assert.equal(reloaded.board.visibleStrokeCount, 1);
  const redo = reloaded.redo();
  assert.deepEqual(redo.operations, [{ op: 'redo', change: second.id }]);
  assert.equal(reloaded.board.visibleStrokeCount, 2);
  await reloaded.close();
});

test('once 256 changes lie below the 500 open to undo, a change settles them, synced and kept', async () => {
  const store = new MemoryStore();
  const server = new FakeServer();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const local = [];
  first.addEventListener('change', (event) => local.push(...event.detail.changes));
  first.commit([stroke(0)]);
  first.undo();
  for (let i = 1; i < 755; i++) first.commit([stroke(i)]);
  // Steps 3…k, the newest 500 open: at k = 756, changes 1…256 lie below seq 257, the oldest open.
  assert.deepEqual(local.at(-1).operations, [{ op: 'settle', through: 256, inactive: [1] }]);
  assert.equal(local.filter((change) => change.operations[0].op === 'settle').length, 1);
  const settle = local.at(-1);
  await synced(first);
  assert.ok((await serverChanges(server)).includes(`${first.device}-757`), 'the settle is pushed like any change');
  const hash = first.board.hash();
  await first.close();

  const reloaded = await open({ WebSocket: server.WebSocket, storage: store });
  assert.equal(reloaded.board.hash(), hash);
  assert.ok(reloaded.board.contains(settle.id));
  let undone = 0;
  assert.equal(reloaded.undoReachedItsEnd, false);
  while (reloaded.undo() !== null) undone += 1;
  assert.equal(undone, 500);
  assert.equal(reloaded.undoReachedItsEnd, true, 'older changes are there, but undo no longer reaches them');
  assert.equal(reloaded.board.visibleStrokeCount, 254);
  await reloaded.close();
});

test('a change that cannot be encoded is refused and uses up no seq', async () => {
  const session = await open({ WebSocket: new FakeServer().WebSocket, storage: new MemoryStore() });
  assert.throws(() => session.commit([{ op: 'addStroke', colour: -1, width: 2, points: [[0, 0]], pressures: null }]));
  assert.throws(() => session.commit([]), TypeError);
  assert.equal(session.commit([stroke(0)]).id.seq, 1);
  await session.close();
  assert.throws(() => session.commit([stroke(0)]), (error) => error.code === 'closed');
});

test('presence goes out only when someone else is here, throttled; peers leave and expire', async () => {
  const server = new FakeServer();
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Alice', peerExpiry: 300 });
  await synced(alice);
  await until(() => server.presence.length === 1, 'the presence sent on joining');
  for (let i = 0; i < 20; i++) alice.setPresence({ cursor: [i, i] });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(server.presence.length, 1, 'alone: nothing sent');

  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Bob', peerExpiry: 300 });
  await until(() => alice.peers.has(bob.device) && bob.peers.has(alice.device), 'each to see the other');
  assert.equal(bob.peers.get(alice.device).name, 'Alice');
  assert.deepEqual(bob.peers.get(alice.device).cursor, [19, 19], 'the latest state, sent when Bob arrived');
  const before = server.presence.length;
  for (let i = 0; i < 30; i++) alice.setPresence({ cursor: [i, 0], ink: { points: [[0, 0], [i, i]], width: 3 } });
  await new Promise((resolve) => setTimeout(resolve, 150));
  const sent = server.presence.length - before;
  assert.ok(sent >= 1 && sent <= 4, `throttled to ≈ 15/s: ${sent} frames in 150 ms`);
  await until(() => bob.peers.get(alice.device)?.cursor?.[0] === 29, 'the last position');
  assert.deepEqual(bob.peers.get(alice.device).ink.points, [[0, 0], [29, 29]]);

  const left = new Promise((resolve) => {
    alice.addEventListener('presence', (event) => {
      if (event.detail.device === bob.device && event.detail.peer === null) resolve(undefined);
    });
  });
  await bob.close();
  await left;
  assert.equal(alice.peers.size, 0, 'gone when the server announced it left');
  await alice.close();
});

test('a silent peer is removed after the expiry', async () => {
  const server = new FakeServer();
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), peerExpiry: 150 });
  await synced(alice);
  const ghost = fromHex('0d'.repeat(16));
  const socket = [...server.sockets][0];
  socket.deliver({ type: 'presence', room: 'room-1', device: ghost, name: 'Ghost', colour: 0, cursorX: 1, cursorY: 2, hasCursor: true, board: '', ink: null });
  await until(() => alice.peers.size === 1, 'the ghost');
  await until(() => alice.peers.size === 0, 'the ghost to expire', 2_000);
  await alice.close();
});

test('a pack from a newer schema is kept aside and does not hold the watermark back', async () => {
  const server = new FakeServer();
  const other = await testAuthor(0x0e);
  const future = encodeMessage(schema.Change, {
    replica: fromHex(other.replica),
    seq: 1,
    stamp: (5_000n << 16n) | 0n,
    board: 'main',
    schemaVersion: 2,
    operations: [],
  });
  await server.inject('room-1', await encodePack({ room: 'room-1', changes: [future] }, other.keys));
  const store = new MemoryStore();
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  await synced(session);
  const room = await store.loadRoom('room-1');
  assert.equal(room.aside.length, 1);
  assert.equal(room.aside[0].schemaVersion, 2);
  assert.equal(room.watermark, 1);
  const next = session.commit([stroke(0)]);
  assert.ok(next.stamp.wall >= 5_000, 'the clock sorts after what it kept aside');
  await session.close();
});

test('a failing local store is shown, and the change still reaches the server', async () => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  await synced(session);
  store.failWrites = new Error('QuotaExceededError');
  session.commit([stroke(0)]);
  await until(() => session.status.detail.includes('could not save on this device'), 'the storage problem');
  await until(() => server.pushes.length === 1, 'the push');
  assert.equal((await serverChanges(server)).length, 1);
  await session.close();
});

test('options are checked', async () => {
  await assert.rejects(open({ room: 'no spaces', storage: new MemoryStore() }), (error) => error.code === 'invalidRoom');
  await assert.rejects(open({ serverURL: 'ftp://x', storage: new MemoryStore(), WebSocket: class {} }), (error) => error.code === 'invalidOptions');
});

test('an edit too large for one change is made as several, all synced, and one undo takes it back', async () => {
  const server = new FakeServer();
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Alice' });
  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), name: 'Bob' });
  await Promise.all([synced(alice), synced(bob)]);
  alice.commit([stroke(-10)]);
  const count = 10_050;
  const changes = alice.commitAll(Array.from({ length: count }, (_, i) => stroke(i)));
  assert.deepEqual(changes.map((change) => change.operations.length), [10_000, 50]);
  assert.deepEqual(changes.map((change) => change.id.seq), [2, 3]);
  for (const change of changes) assert.equal(decodeChange(encodeChange(change)).operations.length, change.operations.length);
  await synced(alice);
  await until(() => bob.board.visibleStrokeCount === count + 1, 'every part reaches the other page');
  assert.equal(bob.board.hash(), alice.board.hash());
  const undo = alice.undo();
  assert.deepEqual(undo.operations, changes.toReversed().map((change) => ({ op: 'undo', change: change.id })));
  assert.equal(alice.board.visibleStrokeCount, 1, 'one undo takes back every part');
  alice.redo();
  assert.equal(alice.board.visibleStrokeCount, count + 1);
  await synced(alice);
  await until(() => bob.board.hash() === alice.board.hash(), 'the undo and the redo reach the other page');
  await Promise.all([alice.close(), bob.close()]);
});
