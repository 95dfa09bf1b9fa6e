// Packs kept aside for later are opened again, as Swift's PackIntake.reopen: when the room is loaded and
// when this tab learns the room's key from another tab; each verified as on arrival. One that opens gives
// its changes (those stamped too far ahead wait aside on their own) and is forgotten; one that now fails
// verification is kept with its reason, and never tried again; a forged one is not tried at all.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newBoardAccess, withLink } from '../../js/sync/access.js';
import { reopenAside, STAMP_AHEAD } from '../../js/sync/pack-intake.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { SyncProtocol } from '../../js/wire/limits.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { openRoomKey } from '../../js/wire/room-key.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';

const ROOM = 'room-1';
const NOW = Date.now();
const peer = await testAuthor(0x71);
const board = newBoardAccess(ROOM);
const key = await openRoomKey(board.key);

/** A pack of peer's changes `seqs`, stamped `wall`, sealed with `roomKey` (plain with null). */
function pack(seqs, { roomKey = key, wall = NOW - 1_000, signer = peer } = {}) {
  const changes = seqs.map((seq) => ({ id: { replica: peer.replica, seq }, stamp: { wall: typeof wall === 'function' ? wall(seq) : wall, counter: 0 }, board: 'main', operations: [stroke(seq * 10)] }));
  return encodePack({ room: ROOM, changes }, signer.keys, { roomKey });
}

/** A network that is down, for sessions that must work from the store alone. */
function offline() {
  const network = new EventTarget();
  network.onLine = false;
  return network;
}

test('reopenAside: what opens now gives its changes, what fails now its reason; forged packs and changes are not tried', async () => {
  const forged = { room: ROOM, kind: 'pack', schemaVersion: 1, bytes: await pack([9], { roomKey: null }), reason: 'forgedAuthor', id: 1 };
  const sealed = { room: ROOM, kind: 'pack', schemaVersion: 1, bytes: await pack([1, 2]), id: 2 };
  const otherKey = { room: ROOM, kind: 'pack', schemaVersion: 1, bytes: await pack([3], { roomKey: await openRoomKey(newBoardAccess(ROOM).key) }), id: 3 };
  const change = { room: ROOM, kind: 'change', schemaVersion: 1, bytes: new Uint8Array([1]), reason: STAMP_AHEAD, id: 4 };
  const items = [forged, sealed, otherKey, change];
  assert.deepEqual(await reopenAside(ROOM, items, { now: NOW }), [], 'without the key nothing opens, and nothing is refused');
  const reopened = await reopenAside(ROOM, items, { now: NOW }, { roomKey: key });
  assert.deepEqual(reopened.map((pack) => [pack.id, pack.changes.length, pack.refused]), [[2, 2, null], [3, 0, 'wrongKey']]);
  assert.deepEqual(reopened[1].aside.map((item) => [item.kind, item.reason]), [['pack', 'wrongKey']], 'kept with its reason');
});

test('at start, a pack sealed before the key opens: its due changes are drawn, one stamped ahead waits on its own, the pack is forgotten', async () => {
  const store = new MemoryStore();
  const ahead = NOW + SyncProtocol.maximumStampLeadMilliseconds + 60_000;
  const forged = await pack([7], { roomKey: null });
  await store.storeRemote(ROOM, [], [
    { room: ROOM, kind: 'pack', schemaVersion: 1, bytes: await pack([1, 2], { wall: (seq) => (seq === 2 ? ahead : NOW - 1_000) }) },
    { room: ROOM, kind: 'pack', schemaVersion: 1, bytes: forged, reason: 'forgedAuthor' },
  ]);
  const session = await open({ room: ROOM, WebSocket: new FakeServer().WebSocket, storage: store, access: withLink(null, { room: ROOM, capability: board.edit, key: board.key }), network: offline() });
  assert.deepEqual(session.board.strokes().map((s) => s.id), [`${peer.replica}-1-0`]);
  assert.equal(session.diagnostics.changesAhead, 1);
  const aside = (await store.loadRoom(ROOM)).aside;
  assert.deepEqual(aside.map((item) => [item.kind, item.reason]).sort(), [['change', STAMP_AHEAD], ['pack', 'forgedAuthor']]);
  assert.deepEqual(aside.find((item) => item.kind === 'pack').bytes, forged, 'a forged pack is never tried again, though it would read');
  await session.close();
});

test('a tab that opened the link without its key keeps sealed packs aside, and opens them once another tab hands it the key', async (t) => {
  const server = new FakeServer();
  await server.inject(ROOM, await pack([1, 2]));
  await server.inject(ROOM, await pack([3], { roomKey: await openRoomKey(newBoardAccess(ROOM).key) }));
  const store = new MemoryStore();
  const keyless = withLink(null, { room: ROOM, capability: board.edit, key: null });
  await store.saveAccess(keyless);
  const session = await open({ room: ROOM, WebSocket: server.WebSocket, storage: store, access: keyless });
  t.after(() => session.close());
  await synced(session);
  assert.equal(session.board.changeCount, 0);
  assert.equal(session.encrypted, false);
  assert.equal((await store.loadRoom(ROOM)).aside.length, 2, 'both kept for later');
  const refused = [];
  session.addEventListener('refused', (event) => refused.push(...event.detail.reasons));

  // Another tab opened the link with its key.
  await store.saveAccess(withLink(keyless, { room: ROOM, capability: board.edit, key: board.key }));
  assert.equal(await session.adoptAccess(await store.loadAccess(ROOM)), true);
  assert.equal(session.encrypted, true);
  await until(() => session.board.changeCount === 2, 'the sealed packs opened');
  assert.deepEqual(refused, ['wrongKey'], 'one sealed with another key is refused now, as on arrival');
  assert.deepEqual((await store.loadRoom(ROOM)).aside.map((item) => item.reason), ['wrongKey']);
  assert.match(session.status.keptAside, /sealed with another key/);

  // What it sends from now on is sealed.
  session.commit([stroke(1_000)]);
  await synced(session);
  const pushed = server.log.get(ROOM).at(-1).pack;
  await assert.rejects(decodePack(pushed, { room: ROOM }), (error) => error.code === 'encrypted');
  assert.equal((await decodePack(pushed, { room: ROOM, roomKey: key })).changes.length, 1);
  await session.close();

  // A reload does not try the refused pack again.
  const reloaded = await open({ room: ROOM, WebSocket: server.WebSocket, storage: store, access: await store.loadAccess(ROOM), network: offline() });
  assert.equal(reloaded.board.changeCount, 3);
  assert.equal(reloaded.diagnostics.packsRefused, 0);
  await reloaded.close();
});
