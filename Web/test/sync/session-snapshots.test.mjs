// The session and room snapshots (protocol 4), against the fake server: a snapshot that holds what the
// page holds is taken and checked, signed; every way a snapshot can lie is refused (or its parts dropped),
// and counted; a subscription from before the packs the server still keeps starts from a snapshot (a
// rebase), and a rebase the page refuses stops it following the room, saying so.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeOrigin, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { openRoomKey } from '../../js/wire/room-key.js';
import { snapshotCheckSigner } from '../../js/wire/snapshot-check.js';
import { encodeSnapshot, encodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { newBoardAccess } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';
import { cutOf } from './support/cuts.mjs';

const ROOM = 'room-1';
const WALL = Date.now() - 60_000;
const peer = await testAuthor(0x61);
const carol = await testAuthor(0x62);

/** A change of `replica`'s drawing a stroke at `x`, encoded. */
const change = (replica, seq, x = seq * 10) => encodeChange({ id: { replica, seq }, stamp: { wall: WALL + seq, counter: 0 }, board: 'main', operations: [stroke(x)] });

/** A pack of `author`'s changes `seqs`. */
const pack = (author, ...seqs) => encodePack({ room: ROOM, changes: seqs.map((seq) => change(author.replica, seq)) }, author.keys);

/** Every change of the packs the server holds through `position` (snapshot parts left out), encoded. */
async function logged(server, position) {
  const changes = [];
  for (const stored of server.log.get(ROOM) ?? []) {
    if (stored.serverSeq > position) continue;
    try {
      changes.push(...(await decodePack(stored.pack, { room: ROOM })).changes);
    } catch {
      // A snapshot part.
    }
  }
  return changes;
}

let ids = 0;
/** A snapshot of `changes` standing for `position`, signed by `author`: its parts. */
function snapshot(changes, { position, author = peer, cut = cutOf(changes), partBodyBytes } = {}) {
  const id = new Uint8Array(16).fill(++ids);
  return encodeSnapshot({ room: ROOM, position, cut, changes, id }, author.keys, { partBodyBytes });
}

/** The snapshot checks the server received. */
const checks = (server) => server.frames.filter((frame) => frame.type === 'snapshotChecked');

/** Snapshot events of a session, as they come. */
function snapshotsOf(session) {
  const events = [];
  session.addEventListener('snapshot', (event) => events.push(event.detail));
  return events;
}

/** Opens a session closed after the test, whatever happens. */
async function openFor(t, options) {
  const session = await open({ room: ROOM, ...options });
  t.after(() => session.close());
  return session;
}

/** A server holding peer's changes 1 and 2, and a session synced with it that drew one stroke. */
async function syncedRoom(t) {
  const server = new FakeServer();
  await server.inject(ROOM, await pack(peer, 1));
  await server.inject(ROOM, await pack(peer, 2));
  const store = new MemoryStore();
  const session = await openFor(t, { WebSocket: server.WebSocket, storage: store });
  await synced(session);
  session.commit([stroke(500)]);
  await synced(session);
  return { server, store, session, events: snapshotsOf(session) };
}

test('a snapshot holding what the page holds is taken: what is new here is drawn, and the page checks it, signed by its timeline’s key', async (t) => {
  const { server, store, session, events } = await syncedRoom(t);
  const held = await logged(server, 3);
  // Carol's change never came here in a pack: the snapshot brings it.
  const parts = await snapshot([...held, change(carol.replica, 1, 900)], { position: 3, partBodyBytes: 200 });
  assert.ok(parts.length > 1, 'in several parts');
  for (const part of parts) await server.inject(ROOM, part);
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the snapshot to be taken');
  assert.deepEqual(events, [{ position: 3, accepted: true, changes: 4, fresh: 1, reason: null }]);
  assert.ok(session.board.strokes().some((s) => s.id.startsWith(carol.replica)), 'the change new here is drawn');
  await until(() => checks(server).length === 1, 'the check');
  const [check] = checks(server);
  assert.equal(await snapshotCheckSigner(check), session.device, 'signed by the page’s timeline');
  await synced(session);
  assert.equal((await store.loadRoom(ROOM)).watermark, 3 + parts.length, 'the parts’ positions count as seen');
  assert.equal((await store.loadRoom(ROOM)).changes.length, 4);
  assert.deepEqual((await store.loadRoom(ROOM)).cover, [], 'one that came with packs stands in for none');
});

test('a snapshot that alters a change the page holds is refused: nothing of it is taken, nothing checked', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  const held = await logged(server, 3);
  const altered = held.map((bytes) => (changeOrigin(bytes).replica === peer.replica && changeOrigin(bytes).seq === 1 ? change(peer.replica, 1, 77) : bytes));
  for (const part of await snapshot([...altered, change(carol.replica, 1)], { position: 3 })) await server.inject(ROOM, part);
  await until(() => session.diagnostics.snapshotsRefused === 1, 'the refusal');
  assert.match(events[0].reason, new RegExp(`its change ${peer.replica}-1 differs from the one held here`));
  assert.equal(session.diagnostics.snapshotRefusal, events[0].reason);
  assert.equal(session.board.strokes().some((s) => s.id.startsWith(carol.replica)), false);
  await synced(session);
  assert.deepEqual(checks(server), []);
});

test('a snapshot that leaves out a change the page received before its position is refused', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  // Standing for position 2, where peer's change 2 came, but holding peer's change 1 alone.
  for (const part of await snapshot([change(peer.replica, 1)], { position: 2 })) await server.inject(ROOM, part);
  await until(() => events.length === 1, 'the snapshot’s outcome');
  assert.match(events[0].reason, /leaves out changes of .* up to 2 that came before its position/);
  // The same, standing for position 1, holds all that came through it: taken.
  for (const part of await snapshot([change(peer.replica, 1)], { position: 1 })) await server.inject(ROOM, part);
  await until(() => events.length === 2, 'the second snapshot’s outcome');
  assert.equal(events[1].accepted, true);
});

test('a snapshot may stand for more than it holds, not leave out what matters here, nor forge this page', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  const held = await logged(server, 3);
  // Standing for peer's change 3 too, which never came here: nothing held is left out.
  const cut = cutOf(held);
  cut.set(peer.replica, { ...cut.get(peer.replica), seq: 3 });
  for (const part of await snapshot(held, { position: 3, cut })) await server.inject(ROOM, part);
  await until(() => events.length === 1, 'the first outcome');
  assert.equal(events[0].accepted, true, events[0].reason);
  // Leaving out peer's first stroke, which still shows here.
  for (const part of await snapshot(held.slice(1), { position: 3, cut: cutOf(held) })) await server.inject(ROOM, part);
  await until(() => events.length === 2, 'the second outcome');
  assert.equal(events[1].reason, `it leaves out ${peer.replica}-1, which still matters here`);
  for (const part of await snapshot([...held, change(session.device, 2, 321)], { position: 3 })) await server.inject(ROOM, part);
  await until(() => events.length === 3, 'the third outcome');
  assert.equal(events[2].reason, 'it holds a change of this device that this device never made');
  assert.equal(session.diagnostics.snapshotsRefused, 2);
  assert.equal(session.board.changeCount, 3);
});

test('this page’s own stroke a snapshot leaves out, though it still matters, is pushed again', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  const pushes = server.pushes.length;
  const held = await logged(server, 3);
  const mine = (bytes) => changeOrigin(bytes).replica === session.device;
  for (const part of await snapshot(held.filter((bytes) => !mine(bytes)), { position: 3, cut: cutOf(held) })) {
    await server.inject(ROOM, part);
  }
  await until(() => events.length === 1, 'the outcome');
  assert.equal(events[0].reason, `it leaves out ${session.device}-1, which still matters here`);
  await until(() => server.pushes.length > pushes, 'a push again');
  await synced(session);
});

test('a part whose siblings disagree is dropped, and its snapshot is never taken', async (t) => {
  const { server, store, session } = await syncedRoom(t);
  const held = await logged(server, 3);
  const id = new Uint8Array(16).fill(0xd1);
  const cut = cutOf(held);
  await server.inject(ROOM, await encodeSnapshotPart({ room: ROOM, cover: { id, position: 3, cut, part: 0, parts: 2 }, changes: held.slice(0, 2) }, peer.keys));
  await server.inject(ROOM, await encodeSnapshotPart({ room: ROOM, cover: { id, position: 2, cut, part: 1, parts: 2 }, changes: held.slice(2) }, peer.keys));
  await until(() => session.diagnostics.snapshotPartsDropped === 1, 'the liar dropped');
  assert.equal(session.diagnostics.snapshotPartDropReason, 'the snapshot is not what it claims: its parts disagree on what it holds');
  await synced(session);
  assert.equal(session.diagnostics.snapshotsChecked + session.diagnostics.snapshotsRefused, 0);
  assert.equal((await store.loadRoom(ROOM)).watermark, 5, 'both count as seen');
});

test('a flood of unfinished parts is bounded, and an honest snapshot after it is taken', async (t) => {
  const server = new FakeServer();
  await server.inject(ROOM, await pack(peer, 1));
  const session = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), maximumSnapshotBytes: 4_000 });
  await synced(session);
  const cut = cutOf([change(peer.replica, 1)]);
  for (let i = 0; i < 30; i++) {
    const id = new Uint8Array(16).fill(0x80 + i);
    await server.inject(ROOM, await encodeSnapshotPart({ room: ROOM, cover: { id, position: 1, cut, part: 0, parts: 1024 }, changes: [change(peer.replica, 1)] }, peer.keys));
  }
  await until(() => session.diagnostics.snapshotPartsDropped > 0, 'the bound to be reached');
  await synced(session);
  for (const part of await snapshot([change(peer.replica, 1)], { position: 1 })) await server.inject(ROOM, part);
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the honest snapshot');
});

test('this page’s own changes a refused snapshot leaves out, though acknowledged, are pushed again', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  const pushes = server.pushes.length;
  // Standing for position 3, where the page's change is: without it.
  for (const part of await snapshot([change(peer.replica, 1), change(peer.replica, 2)], { position: 3 })) await server.inject(ROOM, part);
  await until(() => events.length === 1, 'the outcome');
  assert.match(events[0].reason, /leaves out changes of/);
  await until(() => server.pushes.length > pushes, 'a push again');
  await synced(session);
  assert.equal(server.pushes.at(-1).hex, server.log.get(ROOM)[2].hex, 'the same pack, which the server keeps once');
});

test('a long stroke a refused snapshot leaves out is pushed again, and counted as one edit to upload', async (t) => {
  const { server, session, events } = await syncedRoom(t);
  // The page's stroke at 3 is done; a second, saved while drawn, is an add and two appends, in one pack at 4.
  const added = session.commit([stroke(600)]);
  const id = `${added.id.replica}-${added.id.seq}-0`;
  for (const x of [610, 620]) session.commit([{ op: 'appendPoints', stroke: id, points: [[x, 1], [x + 1, 2]], pressures: null }]);
  await synced(session);
  assert.equal(server.log.get(ROOM).length, 4);
  const counts = [];
  session.addEventListener('status', (event) => counts.push(event.detail.changesToUpload));
  // Standing for position 4, with none of the page's changes: refused, and the page's four are queued again.
  const peers = [change(peer.replica, 1), change(peer.replica, 2)];
  for (const part of await snapshot(peers, { position: 4 })) await server.inject(ROOM, part);
  await until(() => events.length === 1, 'the outcome');
  assert.match(events[0].reason, /leaves out changes of/);
  await synced(session);
  assert.equal(Math.max(...counts), 2, `two strokes to upload, not four changes: ${counts}`);
});

test('a page that keeps aside packs it cannot read takes a snapshot, but does not check it', async (t) => {
  const server = new FakeServer();
  await server.inject(ROOM, await pack(peer, 1));
  const sealed = await encodePack({ room: ROOM, changes: [change(carol.replica, 1)] }, carol.keys, { roomKey: await openRoomKey(newBoardAccess(ROOM).key) });
  await server.inject(ROOM, sealed);
  const session = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore() });
  await synced(session);
  for (const part of await snapshot([change(peer.replica, 1)], { position: 2 })) await server.inject(ROOM, part);
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the snapshot taken');
  await synced(session);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(checks(server), []);
});

/** A server whose packs through 3 are dropped for a snapshot at 4 of peer's changes 1–3 and carol's 1. */
async function compactedRoom({ alter = false } = {}) {
  const server = new FakeServer();
  for (const seq of [1, 2, 3]) await server.inject(ROOM, await pack(peer, seq));
  const changes = [change(peer.replica, 1, alter ? 66 : 10), change(peer.replica, 2), change(peer.replica, 3), change(carol.replica, 1)];
  const [part] = await snapshot(changes, { position: 3 });
  await server.inject(ROOM, part);
  await server.inject(ROOM, await pack(peer, 4));
  server.rebase(ROOM, 3, [4]);
  return server;
}

test('a subscription from before the packs the server keeps starts from a snapshot: taken, the watermark moves past it', async (t) => {
  const server = await compactedRoom();
  const store = new MemoryStore();
  const session = await openFor(t, { WebSocket: server.WebSocket, storage: store });
  const events = snapshotsOf(session);
  await synced(session);
  assert.deepEqual(server.subscribes.map((s) => s.after), [0]);
  assert.deepEqual(events, [{ position: 3, accepted: true, changes: 4, fresh: 4, reason: null }]);
  assert.equal(session.board.changeCount, 5, 'the snapshot’s changes and the pack after it');
  assert.equal((await store.loadRoom(ROOM)).watermark, 5);
  await until(() => checks(server).length === 1, 'the check');
  await session.close();

  // A reload subscribes after the watermark: no rebase again.
  const again = await openFor(t, { WebSocket: server.WebSocket, storage: store });
  await synced(again);
  assert.deepEqual(server.subscribes.map((s) => s.after), [0, 5]);
  assert.equal(again.diagnostics.snapshotsChecked, 0);
});

test('a rebase onto a snapshot the page refuses stops it following the room on this connection, and says so', async (t) => {
  // The page holds peer's change 1 as it came; the snapshot carries it altered.
  const server = await compactedRoom({ alter: true });
  const store = new MemoryStore();
  const first = new FakeServer();
  await first.inject(ROOM, server.log.get(ROOM)[0].pack);
  const earlier = await openFor(t, { WebSocket: first.WebSocket, storage: store });
  await synced(earlier);
  await earlier.close();
  assert.equal((await store.loadRoom(ROOM)).watermark, 1);

  const session = await openFor(t, { WebSocket: server.WebSocket, storage: store });
  await until(() => session.status.unfollowed, 'the room not followed');
  assert.equal(session.status.state, 'offline');
  assert.match(session.status.detail, /does not match what this device holds/);
  assert.equal(session.diagnostics.snapshotsRefused, 1);
  await until(() => server.frames.some((frame) => frame.type === 'unsubscribe'), 'the unsubscribe');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal((await store.loadRoom(ROOM)).watermark, 1, 'nothing past it counts as seen');
  assert.equal(session.board.changeCount, 1, 'nothing of it, nor the pack after it, is taken');
  // Drawing goes on, kept here.
  session.commit([stroke(700)]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(server.log.get(ROOM).length, 5, 'nothing is pushed while the room is not followed');
});

test('a rebase whose parts are no snapshot’s, or another position’s, is never taken', async (t) => {
  const server = new FakeServer();
  for (const seq of [1, 2, 3]) await server.inject(ROOM, await pack(peer, seq));
  const [other] = await snapshot([change(peer.replica, 1), change(peer.replica, 2)], { position: 2 });
  await server.inject(ROOM, other);
  server.rebase(ROOM, 3, [3, 4]);
  const store = new MemoryStore();
  const session = await openFor(t, { WebSocket: server.WebSocket, storage: store });
  await until(() => session.diagnostics.snapshotPartsDropped === 2, 'both dropped');
  assert.equal(session.diagnostics.snapshotPartDropReason, 'the snapshot is not what it claims: a rebase to 3 carries a part standing for 2');
  assert.equal(session.diagnostics.snapshotsChecked + session.diagnostics.snapshotsRefused, 0);
  assert.equal(session.board.changeCount, 0);
  assert.equal((await store.loadRoom(ROOM)).watermark, 0);
  assert.notEqual(session.status.state, 'synced');
});
