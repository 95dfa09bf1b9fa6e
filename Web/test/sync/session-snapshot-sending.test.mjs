// The page sends room snapshots (docs/ARCHITECTURE.md, "Who sends one"), against the fake server: once it
// holds the room's whole history and enough has changed since the newest snapshot it heard of, it sends one
// standing for its watermark, which the server stores and a new page opens from; not on a view link, not
// while it keeps aside what it cannot read, not again until due (after a reload too), and one planned
// before its push was acknowledged is made once it is. A page that started from a snapshot leaving out what
// stopped mattering stands for what it took on that snapshot's word, and sends the next one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { changeKey } from '../../js/model/ids.js';
import { newBoardAccess, withLink } from '../../js/sync/access.js';
import { inertKeys } from '../../js/sync/room-inert.js';
import { readHeld } from '../../js/sync/snapshot-review.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { changeOrigin, encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { encodePack } from '../../js/wire/pack.js';
import { newRoomKeyBytes, openRoomKey } from '../../js/wire/room-key.js';
import { decodeSnapshotPart, encodeSnapshot } from '../../js/wire/snapshot-part.js';
import { add, line } from '../model/support/authors.mjs';
import { testAuthor } from '../support/keys.mjs';
import { cutOf } from './support/cuts.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';
import { loggedChanges, reviewedByOneHoldingEverything, snapshotsStored, storedSnapshots } from './support/snapshots.mjs';

const ROOM = 'room-1';
const WALL = Date.now() - 60_000;
const peer = await testAuthor(0x81);
const other = await testAuthor(0x82);

/** Peer's change `seq`, drawing a stroke, encoded. */
const change = (seq) => encodeChange({ id: { replica: peer.replica, seq }, stamp: { wall: WALL + seq, counter: 0 }, board: 'main', operations: [stroke(seq * 10)] });

/** A server holding peer's changes `1…count`, a pack each. */
async function serverWith(count) {
  const server = new FakeServer();
  for (let seq = 1; seq <= count; seq++) await server.inject(ROOM, await encodePack({ room: ROOM, changes: [change(seq)] }, peer.keys));
  return server;
}

/** Opens a session closed after the test, whatever happens. */
async function openFor(t, options) {
  const session = await open({ room: ROOM, snapshotDelay: 0, ...options });
  t.after(() => session.close());
  return session;
}

/** Lets timers and frames run a while: for what must not happen. */
const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

test('a page holding the room’s whole history sends a snapshot once due, and a new page opens from it', async (t) => {
  const server = await serverWith(3);
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), snapshotThreshold: 5 });
  await synced(page);
  page.commit([stroke(100)]);
  page.commit([stroke(200)]);
  await until(() => page.diagnostics.snapshotsSent === 1, 'the snapshot');
  const [{ positions, snapshot }, ...more] = await snapshotsStored(server, ROOM, 1);
  assert.equal(more.length, 0);
  assert.equal(snapshot.author, page.device, 'signed by the page’s timeline');
  const position = positions[0] - 1;
  assert.equal(snapshot.position, position, 'standing for the watermark it was made at');
  assert.deepEqual(new Map([...snapshot.cut].map(([replica, { seq }]) => [replica, seq])), new Map([[peer.replica, 3], [page.device, 2]]));
  assert.equal(snapshot.changes.length, 5);

  server.rebase(ROOM, position, positions);
  const fresh = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore() });
  const events = [];
  fresh.addEventListener('snapshot', (event) => events.push(event.detail));
  await synced(fresh);
  assert.deepEqual(events, [{ position, accepted: true, changes: 5, fresh: 5, reason: null }]);
  assert.equal(fresh.board.hash(), page.board.hash(), 'the same drawing');
  assert.equal(server.subscribes.at(-1).after, 0);
});

test('none before it is due, nor again until the threshold past the newest heard of, after a reload too', async (t) => {
  const server = await serverWith(2);
  const store = new MemoryStore();
  const options = { WebSocket: server.WebSocket, storage: store, snapshotThreshold: 4 };
  const first = await open({ room: ROOM, snapshotDelay: 0, ...options });
  await synced(first);
  first.commit([stroke(1)]);
  await synced(first);
  await settle();
  assert.equal(first.diagnostics.snapshotsSent, 0, 'three changes of four');
  first.commit([stroke(2)]);
  await until(() => first.diagnostics.snapshotsSent === 1, 'the first snapshot');
  const [{ snapshot: sent }] = await snapshotsStored(server, ROOM, 1);
  assert.deepEqual((await store.loadRoom(ROOM)).heard, { position: sent.position, changes: 4, held: 4 });
  // Four more are due past it: three are not enough, before or after a reload.
  for (let i = 0; i < 3; i++) first.commit([stroke(10 + i)]);
  await synced(first);
  await settle();
  await first.close();
  const again = await openFor(t, options);
  await synced(again);
  await settle();
  assert.equal(again.diagnostics.snapshotsSent, 0, 'the reload remembers the snapshot it sent');
  again.commit([stroke(20)]);
  await until(() => again.diagnostics.snapshotsSent === 1, 'the second snapshot');
  const stored = await snapshotsStored(server, ROOM, 2);
  assert.deepEqual(stored.map(({ snapshot }) => snapshot.changes.length), [4, 8]);
});

test('a snapshot this page checked counts as heard of: the next waits for the threshold past it', async (t) => {
  const server = await serverWith(6);
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), snapshotThreshold: 4, snapshotDelay: 50 });
  const changes = [1, 2, 3, 4, 5, 6].map(change);
  // Peer's snapshot of its six changes, stored before the page's stroke: checked here, it is the newest known.
  for (const part of await encodeSnapshot({ room: ROOM, position: 6, cut: cutOf(changes), changes, id: new Uint8Array(16).fill(3) }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  await until(() => page.diagnostics.snapshotsChecked === 1, 'the check');
  page.commit([stroke(1)]);
  await synced(page);
  await settle(200);
  assert.equal(page.diagnostics.snapshotsSent, 0, 'seven held, ten due');
  for (let i = 0; i < 3; i++) page.commit([stroke(10 + i)]);
  await until(() => page.diagnostics.snapshotsSent === 1, 'ten held');
});

test('never on a view link, nor when the options say never', async (t) => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const maker = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: board, snapshotThreshold: null });
  const viewer = await openFor(t, {
    WebSocket: server.WebSocket,
    storage: new MemoryStore(),
    access: withLink(null, { room: ROOM, capability: board.view, key: board.key }),
    snapshotThreshold: 1,
  });
  await Promise.all([synced(maker), synced(viewer)]);
  for (let i = 0; i < 4; i++) maker.commit([stroke(i * 10)]);
  await until(() => viewer.board.changeCount === 4, 'the maker’s strokes at the viewer’s');
  await synced(maker);
  await settle();
  assert.deepEqual([maker.diagnostics.snapshotsSent, viewer.diagnostics.snapshotsSent], [0, 0]);
  assert.equal(viewer.diagnostics.snapshotNotMade, null, 'never even planned');
  assert.equal(server.viewOnlyRefusals, 0);
});

test('a snapshot waits a random part of the delay, on the connection it was planned on only', async (t) => {
  const server = await serverWith(2);
  const waiting = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), snapshotThreshold: 3, snapshotDelay: 3_600_000 });
  await synced(waiting);
  waiting.commit([stroke(1)]);
  await synced(waiting);
  await settle(300);
  assert.equal(waiting.diagnostics.snapshotsSent, 0, 'an hour’s delay');
  await waiting.close();

  const page = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), snapshotThreshold: 3, snapshotDelay: 100 });
  await synced(page);
  page.commit([stroke(2)]);
  await synced(page);
  // Planned on this connection; the next one plans its own, and only one is sent.
  server.crash();
  await until(() => page.diagnostics.snapshotsSent === 1, 'the snapshot, on the next connection');
  await snapshotsStored(server, ROOM, 1);
  await settle(300);
  assert.equal((await storedSnapshots(server, ROOM)).length, 1);
  assert.equal(page.diagnostics.snapshotsSent, 1);
});

test('a snapshot planned before this page’s push was acknowledged is made once it is', async (t) => {
  const server = await serverWith(3);
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), snapshotThreshold: 3, snapshotDelay: 20 });
  await synced(page);
  server.acking = false;
  page.commit([stroke(1)]);
  await until(() => server.log.get(ROOM).length === 4, 'the push stored');
  // Told the room is caught up while its push waits for the ack, the page plans one: its timeline is not in
  // the cut yet, so none is made.
  const tell = (frame) => {
    for (const socket of server.sockets) socket.deliver(frame);
  };
  tell({ type: 'progress', room: ROOM, head: 3, bytesBehind: 0, packsBehind: 0 });
  await until(() => page.diagnostics.snapshotNotMade !== null, 'a snapshot considered and not made');
  assert.equal(page.diagnostics.snapshotNotMade, 'the page’s own timeline is not in the cut yet');
  assert.equal(page.diagnostics.snapshotsSent, 0);
  // The ack comes: the snapshot is made, with the page's change in it.
  const pushed = server.log.get(ROOM)[3];
  tell({ type: 'ack', room: ROOM, packId: Uint8Array.from(Buffer.from(pushed.hex, 'hex')), serverSeq: pushed.serverSeq });
  await until(() => page.diagnostics.snapshotsSent === 1, 'the snapshot');
  const [{ snapshot }] = await snapshotsStored(server, ROOM, 1);
  assert.equal(snapshot.position, 4);
  assert.equal(snapshot.cut.get(page.device)?.seq, 1);
  assert.equal(snapshot.cut.get(peer.replica)?.seq, 3);
});

test('in an encrypted room the parts are sealed with the room’s key; a new page with the key opens from them', async (t) => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const maker = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: board, snapshotThreshold: 3 });
  await synced(maker);
  for (let i = 0; i < 3; i++) maker.commit([stroke(i * 10)]);
  await until(() => maker.diagnostics.snapshotsSent === 1, 'the snapshot');
  const roomKey = await openRoomKey(board.key);
  const [{ positions, snapshot }] = await snapshotsStored(server, ROOM, 1, { roomKey });
  const part = server.log.get(ROOM)[positions[0] - 1].pack;
  await assert.rejects(decodeSnapshotPart(part, { room: ROOM }), (error) => error instanceof WireError && error.code === 'encrypted');
  await assert.rejects(decodeSnapshotPart(part, { room: ROOM, roomKey: await openRoomKey(newRoomKeyBytes()) }), (error) => error.code === 'wrongKey');
  assert.equal(snapshot.changes.length, 3);
  server.rebase(ROOM, snapshot.position, positions);
  const editor = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: withLink(null, { room: ROOM, capability: board.edit, key: board.key }) });
  await synced(editor);
  assert.equal(editor.diagnostics.snapshotsChecked, 1);
  assert.equal(editor.board.hash(), maker.board.hash());
});

test('none while the page keeps aside what it cannot read, nor while it holds a change past a gap', async (t) => {
  const sealedServer = await serverWith(3);
  const sealed = await encodePack({ room: ROOM, changes: [change(4)] }, peer.keys, { roomKey: await openRoomKey(newRoomKeyBytes()) });
  await sealedServer.inject(ROOM, sealed);
  const keeping = await openFor(t, { WebSocket: sealedServer.WebSocket, storage: new MemoryStore(), snapshotThreshold: 3 });
  await synced(keeping);
  keeping.commit([stroke(1)]);
  await until(() => keeping.diagnostics.snapshotNotMade !== null, 'one considered');
  assert.equal(keeping.diagnostics.snapshotNotMade, 'the page keeps aside changes it cannot read yet');

  // Peer's change 2 came, its change 1 never did.
  const gapServer = new FakeServer();
  await gapServer.inject(ROOM, await encodePack({ room: ROOM, changes: [change(2)] }, peer.keys));
  const gapped = await openFor(t, { WebSocket: gapServer.WebSocket, storage: new MemoryStore(), snapshotThreshold: 2 });
  await synced(gapped);
  gapped.commit([stroke(1)]);
  gapped.commit([stroke(2)]);
  await until(() => gapped.diagnostics.snapshotNotMade !== null, 'one considered');
  assert.equal(gapped.diagnostics.snapshotNotMade, 'the page lacks changes the cut stands for');
  await settle();
  assert.deepEqual([keeping.diagnostics.snapshotsSent, gapped.diagnostics.snapshotsSent], [0, 0]);
});

test('a page that took a lean snapshot through a rebase sends the room’s next snapshot; one holding everything accepts it', async (t) => {
  // Peer and other's history, of which the server keeps only a snapshot that leaves out what stopped mattering:
  // peer's stroke a, undone and settled, with its undo, and its stroke d, deleted by other, who settled that.
  let wall = Date.now() - 60_000;
  const now = () => ++wall;
  const board = new Board('main');
  const writers = { [peer.replica]: new Author({ replica: peer.replica, now }), [other.replica]: new Author({ replica: other.replica, now }) };
  const history = [];
  const made = (who, operations) => {
    const change = writers[who.replica].makeChange(board, operations);
    board.apply(change);
    history.push(change);
    return change;
  };
  const a = made(peer, [add(line(3))]);
  made(peer, [add(line(3, 20))]);
  made(peer, [{ op: 'undo', change: a.id }]);
  const peerSettle = made(peer, [board.settlement(peer.replica, 3)]);
  const d = made(peer, [add(line(3, 40))]);
  made(other, [{ op: 'set', stroke: `${peer.replica}-${d.id.seq}-0`, attribute: 'deleted', value: true }]);
  made(other, [board.settlement(other.replica, 1)]);
  const encoded = history.map(encodeChange);
  const server = new FakeServer();
  const keysOf = { [peer.replica]: peer.keys, [other.replica]: other.keys };
  for (const [index, change] of history.entries()) await server.inject(ROOM, await encodePack({ room: ROOM, changes: [encoded[index]] }, keysOf[change.id.replica]));
  const cut = new Map([...cutOf(encoded)].map(([replica, { seq }]) => [replica, seq]));
  const inert = inertKeys(encoded.map(readHeld), cut);
  assert.deepEqual([...inert].sort(), [`${peer.replica}-1`, `${peer.replica}-3`, `${peer.replica}-5`].sort(), 'a, its undo, and d');
  const lean = encoded.filter((bytes) => !inert.has(changeKey(changeOrigin(bytes))));
  const position = server.log.get(ROOM).length;
  for (const part of await encodeSnapshot({ room: ROOM, position, cut: cutOf(encoded), changes: lean, id: new Uint8Array(16).fill(8) }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  server.rebase(ROOM, position, [position + 1]);

  const store = new MemoryStore();
  const page = await openFor(t, { WebSocket: server.WebSocket, storage: store, snapshotThreshold: 3, snapshotDelay: 0 });
  await until(() => page.diagnostics.snapshotsChecked === 1, 'the rebase taken');
  await synced(page);
  assert.equal(page.board.hash(), board.hash());
  assert.deepEqual(
    (await store.loadRoom(ROOM)).cover.map(({ replica, seq, stamp }) => [replica, seq, stamp.wall]).sort(),
    [
      [peer.replica, 5, peerSettle.stamp.wall],
      [other.replica, 2, history.at(-1).stamp.wall],
    ].sort(),
    'each timeline as far as the snapshot stands, with the latest stamp held of it',
  );
  // Its own strokes, on the connection it rebased on: the next snapshot is due at 7 + 3 changes.
  for (let i = 0; i < 3; i++) page.commit([stroke(100 + i * 10)]);
  await until(() => page.diagnostics.snapshotsSent === 1, 'the page’s snapshot');
  const [, { positions, snapshot }] = await snapshotsStored(server, ROOM, 2);
  assert.equal(snapshot.author, page.device);
  assert.deepEqual(
    [...snapshot.cut].map(([replica, { seq, stamp }]) => [replica, seq, stamp.wall]).sort(),
    [
      [peer.replica, 5, peerSettle.stamp.wall],
      [other.replica, 2, history.at(-1).stamp.wall],
      [page.device, 3, changeOrigin((await store.loadChanges(ROOM, [`${page.device}-3`]))[0]).stamp.wall],
    ].sort(),
    'peer’s last change is not held: its stamp is the latest held of it',
  );
  assert.equal(snapshot.changes.length, 7, 'what still matters: four of the room’s, three of the page’s');
  const everything = await loggedChanges(server, ROOM);
  assert.equal(everything.length, 10);
  const verdict = reviewedByOneHoldingEverything(snapshot, everything);
  assert.equal(verdict.accepted, true, verdict.reason);
  assert.deepEqual(verdict.leftOut.sort(), [...inert].sort());

  // A new page opens from it: the same drawing.
  server.rebase(ROOM, snapshot.position, positions);
  const fresh = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore() });
  await synced(fresh);
  assert.equal(fresh.diagnostics.snapshotsChecked, 1);
  assert.equal(fresh.board.hash(), page.board.hash());
  assert.equal(fresh.board.changeCount, 7);
});
