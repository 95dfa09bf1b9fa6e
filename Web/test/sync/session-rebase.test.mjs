// A page behind the floor (docs/ARCHITECTURE.md, "Catching up from before the floor"), against the fake
// server: the rebase snapshot is checked as any other. What the page still holds from before and the
// snapshot leaves out must have stopped mattering by its own reckoning, which the proof the snapshot keeps
// (a deletion, and the settle that fixes it) makes possible; taken, it stays in the store and changes
// nothing shown, and the page's own changes the server never stored are pushed. One that leaves out work
// that still matters here is refused, and the page keeps all it holds.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { encodeSnapshot } from '../../js/wire/snapshot-part.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';
import { cutOf } from './support/cuts.mjs';

const ROOM = 'room-1';
const peer = await testAuthor(0x71);

/** A change of peer's, encoded, stamped after everything the page made. */
const peers = (seq, operations) => {
  const stamp = { wall: Date.now() + seq, counter: 0 };
  return encodeChange({ id: { replica: peer.replica, seq }, stamp, board: 'main', operations });
};

/** The keys of the changes a store holds for the room. */
async function storedKeys(store) {
  return (await store.loadRoom(ROOM)).changes.map((change) => change.key).sort();
}

/** A board of `changes`, encoded or in the JSON form. */
function boardOf(changes) {
  const board = new Board('main');
  board.applyAll(changes.map((change) => (change instanceof Uint8Array ? decodeChange(change) : change)));
  return board;
}

/**
 * A page that drew stroke x, acknowledged, then went away and drew another offline: meanwhile peer made
 * `theirs`, and the server dropped its packs for peer's snapshot, which holds them and leaves x out.
 * @param {(x: object) => Uint8Array[]} theirs
 */
async function awayWhileCompacted(t, theirs) {
  const server = new FakeServer();
  const store = new MemoryStore();
  const first = await open({ WebSocket: server.WebSocket, storage: store });
  const x = first.commit([stroke(0)]);
  await synced(first);
  server.up = false;
  const offline = first.commit([stroke(40)]);
  await first.close();
  const [xBytes] = (await decodePack(server.log.get(ROOM)[0].pack, { room: ROOM })).changes;
  const made = theirs(x);
  for (const bytes of made) await server.inject(ROOM, await encodePack({ room: ROOM, changes: [bytes] }, peer.keys));
  const position = server.log.get(ROOM).length;
  const cut = cutOf([xBytes, ...made]);
  const id = new Uint8Array(16).fill(7);
  for (const part of await encodeSnapshot({ room: ROOM, position, cut, changes: made, id }, peer.keys)) {
    await server.inject(ROOM, part);
  }
  server.rebase(ROOM, position, [position + 1]);
  server.up = true;
  const session = await open({ WebSocket: server.WebSocket, storage: store });
  t.after(() => session.close());
  return { server, store, session, x, offline, made };
}

test('a rebase leaving out what stopped mattering is taken; what the page held stays, shown as before', async (t) => {
  // Peer deleted x and settled: the snapshot leaves x's add out and keeps the deletion, its proof.
  const theirs = (x) => [
    peers(1, [{ op: 'set', stroke: `${x.id.replica}-1-0`, attribute: 'deleted', value: true }]),
    peers(2, [{ op: 'settle', through: 1, inactive: [] }]),
  ];
  const { server, store, session, x, offline, made } = await awayWhileCompacted(t, theirs);
  await until(() => session.diagnostics.snapshotsChecked === 1, 'the rebase to be taken');
  await synced(session);
  const xKey = `${x.id.replica}-1`;
  assert.ok((await storedKeys(store)).includes(xKey), 'x’s add stays in the store');
  assert.ok(session.board.contains(x.id));
  assert.deepEqual(session.board.strokes().map((s) => s.id), [`${x.id.replica}-2-0`], 'x is deleted');
  assert.equal(session.board.hash(), boardOf([...made, offline]).hash(), 'it changes nothing shown');
  const stored = (await store.loadRoom(ROOM)).changes.map((change) => change.bytes);
  assert.equal(session.board.hash(), boardOf(stored).hash(), 'the board is the one the store makes');
  await until(() => server.log.get(ROOM).length === 5, 'the change made offline to be pushed');
  assert.ok((await store.loadRoom(ROOM)).watermark >= 4, 'the watermark moved past the snapshot');
  assert.deepEqual(
    (await store.loadRoom(ROOM)).cover.map(({ replica, seq }) => [replica, seq]),
    [[peer.replica, 2]],
    'the room’s store stands for what it took in place of packs, its own timeline aside',
  );
  assert.equal(session.commit([stroke(80)]).id.seq, 3, 'seqs go on');
  await synced(session);
});

test('a rebase that leaves out a stroke still shown here is refused, and the page keeps all it holds', async (t) => {
  const { session, store, x } = await awayWhileCompacted(t, () => [peers(1, [stroke(10)])]);
  await until(() => session.status.unfollowed, 'the room not followed');
  assert.equal(session.diagnostics.snapshotRefusal, `it leaves out ${x.id.replica}-1, which still matters here`);
  assert.ok(session.board.contains(x.id));
  assert.deepEqual(await storedKeys(store), [`${x.id.replica}-1`, `${x.id.replica}-2`]);
  assert.equal((await store.loadRoom(ROOM)).watermark, 1, 'nothing past it counts as seen');
  assert.deepEqual((await store.loadRoom(ROOM)).cover, [], 'a snapshot refused stands for nothing here');
});
