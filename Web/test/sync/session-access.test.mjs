// The session in a room guarded by capabilities, and sealed with a key, against the fake server (which
// keeps access as the real one does): what is sent in what order, what a view link may do, links refused
// and replaced, and packs and presence sealed end to end. (integration.test.mjs runs the same against the
// real server.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newBoardAccess, withLink } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { WireError } from '../../js/wire/errors.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { openRoomKey } from '../../js/wire/room-key.js';
import { testAuthor } from '../support/keys.mjs';
import { FakeServer } from './support/fake-server.mjs';
import { open, stroke, synced, TestNetwork, until } from './support/sessions.mjs';

const ROOM = 'room-1';

/** The record of a device that opened `kind`'s link of `board` (only that capability, and the key). */
const linkHolder = (board, kind) => withLink(null, { room: ROOM, capability: board[kind], key: board.key });

/**
 * Opens a session that is closed after the test `t` whatever happens: a session left waiting for a room
 * would keep asking, and node running, after a failed assertion.
 */
const openFor = async (t, options) => {
  const session = await open(options);
  t.after(() => session.close());
  return session;
};

/** What a client sent, frame by frame, leaving out presence (its timing is the throttle's). */
const sent = (server) => server.frames.filter((frame) => frame.type !== 'presence').map((frame) => frame.type);

test('a board made offline registers on its first connection: createRoom, then subscribe, then its pushes, sealed', async () => {
  const server = new FakeServer();
  server.up = false;
  server.openRooms = false;
  const board = newBoardAccess(ROOM);
  const store = new MemoryStore();
  const maker = await open({ WebSocket: server.WebSocket, storage: store, access: board });
  assert.equal(maker.rights, 'admin', 'known from the record before any network');
  assert.equal(maker.encrypted, true);
  maker.commit([stroke(0)]);
  maker.commit([stroke(10)]);
  const accesses = [];
  maker.addEventListener('access', (event) => accesses.push(event.detail));
  server.up = true;
  await synced(maker);
  assert.deepEqual(sent(server).slice(0, 3), ['hello', 'createRoom', 'subscribe']);
  assert.ok(sent(server).slice(3).every((type) => type === 'push'), `${sent(server)}`);
  assert.equal(server.subscribes[0].capability, board.admin, 'the maker subscribes as admin');
  assert.deepEqual(accesses, [{ rights: 'admin', guarded: true }]);
  for (const { pack } of server.log.get(ROOM)) {
    await assert.rejects(decodePack(pack, { room: ROOM }), (error) => error instanceof WireError && error.code === 'encrypted', 'the server holds sealed packs');
  }

  // Another device, with the edit link: the board, opened with the key.
  const editor = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'edit') });
  await synced(editor);
  assert.equal(editor.rights, 'edit');
  assert.equal(editor.board.hash(), maker.board.hash());
  editor.commit([stroke(20)]);
  await until(() => maker.board.changeCount === 3, 'the editor’s stroke at the maker’s');
  await maker.close();
  await editor.close();

  // Reconnecting registers again: the same answer, nothing changes.
  const again = await open({ WebSocket: server.WebSocket, storage: store, access: board });
  await synced(again);
  assert.equal(server.frames.filter((frame) => frame.type === 'createRoom').length, 2);
  await again.close();
});

test('nothing is pushed, nor presence sent, before access says the link may edit', async () => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const maker = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: board });
  maker.commit([stroke(0)]);
  await synced(maker);
  const frames = server.frames.map((frame) => frame.type);
  const subscribed = frames.indexOf('subscribe');
  assert.ok(subscribed > 0);
  assert.ok(frames.slice(0, subscribed).every((type) => type === 'hello' || type === 'createRoom'), `${frames}`);
  await maker.close();
});

test('a view link sees the board live; it never pushes nor sends presence, and the server never has to refuse it', async () => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const network = new TestNetwork();
  const maker = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: board, name: 'Maker', network });
  const viewer = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'view'), name: 'Viewer' });
  assert.equal(viewer.rights, 'view', 'view only before it connects');
  await Promise.all([synced(maker), synced(viewer)]);
  maker.commit([stroke(0)]);
  await until(() => viewer.board.changeCount === 1, 'the maker’s stroke at the viewer’s');
  viewer.commit([stroke(50)]);
  viewer.setPresence({ cursor: [1, 2] });
  // A page announces itself when it subscribes, and presence is never stored: the maker's announcement
  // may have gone before the viewer followed the room, so the maker joins again.
  maker.setPresence({ cursor: [3, 4] });
  network.goOffline();
  await until(() => maker.status.state === 'offline', 'the maker offline');
  network.goOnline();
  await synced(maker);
  await until(() => viewer.peers.size === 1, 'the viewer to see the maker');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(server.viewOnlyRefusals, 0);
  const viewerDevice = viewer.device;
  assert.ok(server.pushes.every(({ hex }) => hex !== undefined));
  assert.equal((server.log.get(ROOM) ?? []).length, 1, 'only the maker’s pack');
  assert.ok(server.presence.every((frame) => Buffer.from(frame.device).toString('hex') !== viewerDevice), 'no presence from the viewer');
  assert.equal(maker.peers.size, 0, 'the maker does not see a viewer who says nothing');
  assert.equal(viewer.status.rights, 'view');
  assert.match(viewer.status.detail, /view only/);
  await maker.close();
  await viewer.close();
});

test('a link the server refuses stops the session, says so, and does not reconnect', async () => {
  const server = new FakeServer();
  server.openRooms = false;
  const board = newBoardAccess(ROOM);
  const maker = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: board });
  await synced(maker);
  await maker.close();

  const stranger = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(newBoardAccess(ROOM), 'edit') });
  const denied = [];
  stranger.addEventListener('denied', (event) => denied.push(event.detail));
  await until(() => stranger.status.denied !== null, 'the refusal');
  assert.deepEqual(denied.map((d) => d.reason), ['notAllowed']);
  assert.equal(stranger.status.state, 'offline');
  assert.equal(stranger.status.detail, 'This link no longer works: ask for a new one');
  const attempts = server.attempts;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(server.attempts, attempts, 'no reconnection against a dead capability');
  await stranger.close();
});

test('a link to a board the server does not know yet waits on its connection, asks again, and opens once the maker connects', async (t) => {
  const server = new FakeServer();
  server.openRooms = false;
  const board = newBoardAccess(ROOM);
  const early = await openFor(t, {
    WebSocket: server.WebSocket,
    storage: new MemoryStore(),
    access: linkHolder(board, 'edit'),
    unknownRoomBackoff: { first: 20, longest: 40 },
  });
  const denied = [];
  early.addEventListener('denied', (event) => denied.push(event.detail));
  await until(() => early.status.waiting, 'the waiting status');
  assert.equal(early.status.denied, null, 'not refused');
  assert.match(early.status.detail, /^waiting for this board to reach the server/);
  early.commit([stroke(5)]);
  const subscribes = () => server.frames.filter((frame) => frame.type === 'subscribe').length;
  await until(() => subscribes() >= 4, 'asking again');
  assert.equal(server.attempts, 1, 'on the one connection');
  assert.equal(early.status.waiting, true);
  assert.equal(early.rights, 'edit', 'the link’s rights, to draw offline meanwhile');
  assert.equal(server.pushes.length, 0, 'nothing pushed to a room that is not there');

  // The maker, who made the board offline, connects: the board reaches the server, and the link opens.
  const maker = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: board });
  maker.commit([stroke(0)]);
  await synced(maker);
  await synced(early);
  await until(() => maker.board.changeCount === 2 && early.board.changeCount === 2, 'each other’s stroke');
  assert.equal(early.board.hash(), maker.board.hash());
  assert.equal(early.status.waiting, false);
  assert.equal(server.attempts, 2, 'the maker’s connection, and still the one of the early link');
  assert.deepEqual(denied, []);
  await early.close();
  await maker.close();
});

test('the network coming back while waiting for a board subscribes at once, and the delays start over from the shortest', async (t) => {
  const server = new FakeServer();
  server.openRooms = false;
  const network = new TestNetwork();
  const board = newBoardAccess(ROOM);
  const early = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'view'), network, unknownRoomBackoff: { first: 25, longest: 60_000 } });
  const subscribes = () => server.frames.filter((frame) => frame.type === 'subscribe').length;
  // Six refusals in a row: the next request would wait 0.8 s to 1.6 s.
  await until(() => subscribes() >= 6, 'six requests');
  network.goOffline();
  await until(() => early.status.state === 'offline' && !early.status.waiting, 'offline, not waiting');
  const before = subscribes();
  network.goOnline();
  await until(() => subscribes() >= before + 2, 'the new connection’s request, and one more after the shortest delay', 500);
  assert.equal(early.status.waiting, true);
  const maker = await openFor(t, { WebSocket: server.WebSocket, storage: new MemoryStore(), access: board });
  await synced(maker);
  await synced(early);
  assert.equal(early.rights, 'view');
  await early.close();
  await maker.close();
});

test('replacing the view link closes the old link’s pages, which say it no longer works; the new link opens', async () => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const store = new MemoryStore();
  const maker = await open({ WebSocket: server.WebSocket, storage: store, access: board });
  const viewer = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'view') });
  const editor = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'edit') });
  await Promise.all([synced(maker), synced(viewer), synced(editor)]);
  const links = [];
  maker.addEventListener('links', (event) => links.push(event.detail));
  const record = await maker.replaceLink('view');
  assert.notEqual(record.view, board.view);
  assert.equal(record.edit, board.edit, 'the edit link is kept');
  assert.equal(record.admin, board.admin);
  assert.deepEqual(await store.loadAccess(ROOM), record, 'kept in the store');
  assert.deepEqual(links, [record]);
  await until(() => viewer.status.denied === 'capabilityRevoked', 'the old view link refused');
  assert.match(viewer.status.detail, /no longer works/);
  assert.equal(editor.status.denied, null, 'the edit link still works');
  await synced(maker);

  const newViewer = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: withLink(null, { room: ROOM, capability: record.view, key: record.key }) });
  await synced(newViewer);
  assert.equal(newViewer.rights, 'view');
  await assert.rejects(editor.replaceLink('edit'), (error) => error.code === 'accessDenied', 'only the admin device replaces links');
  for (const session of [maker, viewer, editor, newViewer]) await session.close();
});

test('sealed packs that do not open, and plain packs in an encrypted room, are kept aside, never drawn, and said', async () => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const intruder = await testAuthor(0x1d);
  const change = (seq) => ({ id: { replica: intruder.replica, seq }, stamp: { wall: Date.now(), counter: 0 }, board: 'main', operations: [stroke(seq)] });
  const otherKey = await openRoomKey(newBoardAccess(ROOM).key);
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [change(1)] }, intruder.keys, { roomKey: otherKey }));
  await server.inject(ROOM, await encodePack({ room: ROOM, changes: [change(2)] }, intruder.keys));
  const honest = await encodePack({ room: ROOM, changes: [change(3)] }, intruder.keys, { roomKey: await openRoomKey(board.key) });
  await server.inject(ROOM, honest);
  const session = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'edit') });
  const refused = [];
  session.addEventListener('refused', (event) => refused.push(...event.detail.reasons));
  await synced(session);
  assert.deepEqual(refused.sort(), ['unsealed', 'wrongKey']);
  assert.deepEqual(session.board.strokes().map((s) => s.id.split('-')[1]), ['3'], 'only the honest sealed pack is drawn');
  assert.equal(session.status.keptAside, '2 received packs kept aside, not shown: sealed with another key, not sealed, on an encrypted board');
  assert.deepEqual(session.diagnostics.refusedReasons, { wrongKey: 1, unsealed: 1 });
  await session.close();
});

test('presence in an encrypted room is sealed on the way: the server relays only room and device', async () => {
  const server = new FakeServer();
  const board = newBoardAccess(ROOM);
  const alice = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: board, name: 'Alice' });
  const bob = await open({ WebSocket: server.WebSocket, storage: new MemoryStore(), access: linkHolder(board, 'edit'), name: 'Bob' });
  await Promise.all([synced(alice), synced(bob)]);
  await until(() => bob.peers.has(alice.device) && alice.peers.has(bob.device), 'each to see the other');
  assert.equal(bob.peers.get(alice.device).name, 'Alice', 'opened with the key');
  alice.setPresence({ cursor: [12, 34] });
  await until(() => bob.peers.get(alice.device)?.cursor?.[0] === 12, 'the cursor');
  assert.ok(server.presence.length > 0);
  for (const frame of server.presence) {
    assert.equal(frame.name, '', 'the server never sees a name');
    assert.equal(frame.hasCursor, false);
    assert.ok(frame.sealed.length > 28);
  }
  // A plain presence in an encrypted room (the server could write one) is not believed.
  const [socket] = [...server.sockets].filter((s) => s.device === bob.device);
  socket.deliver({ type: 'presence', room: ROOM, device: new Uint8Array(16).fill(7), name: 'Mallory', colour: 0, cursorX: 0, cursorY: 0, hasCursor: true, board: '', ink: null });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(bob.peers.has('07'.repeat(16)), false);
  await alice.close();
  await until(() => !bob.peers.has(alice.device), 'the server’s plain note that Alice left');
  await bob.close();
});

test('another tab’s replaced link is taken from the store: shown, registered, and used if this tab subscribed with the old one', async (t) => {
  const server = new FakeServer();
  server.openRooms = false;
  const board = newBoardAccess(ROOM);
  // One browser profile: one store, two tabs of the board's maker.
  const store = new MemoryStore();
  await store.saveAccess(board);
  const a = await openFor(t, { WebSocket: server.WebSocket, storage: store, access: board });
  const b = await openFor(t, { WebSocket: server.WebSocket, storage: store, access: board });
  await Promise.all([synced(a), synced(b)]);
  const shown = [];
  b.addEventListener('links', (event) => shown.push(event.detail));
  const record = await a.replaceLink('view');
  assert.equal(b.access.view, board.view, 'tab B holds the old view link until told');
  const attempts = server.attempts;
  assert.equal(await b.adoptAccess(await store.loadAccess(ROOM)), true);
  assert.deepEqual(b.access, record);
  assert.deepEqual(shown, [record]);
  assert.equal(await b.adoptAccess(await store.loadAccess(ROOM)), false, 'once: nothing changes the second time');
  b.commit([stroke(1)]);
  await until(() => a.board.changeCount === 1, 'B’s stroke at A');
  assert.equal(server.attempts, attempts, 'B subscribed as admin: its connection stays');

  // B replaces the edit link next: over the store's record, so A's new view link stays.
  const both = await b.replaceLink('edit');
  assert.equal(both.view, record.view, 'the view link A made is kept');
  assert.notEqual(both.edit, board.edit);
  assert.deepEqual(await store.loadAccess(ROOM), both);

  // A tab that subscribed with the edit link is refused when it is replaced, and opens again on the store's.
  const c = await openFor(t, { WebSocket: server.WebSocket, storage: store, access: linkHolder({ ...board, edit: both.edit }, 'edit') });
  await synced(c);
  const denied = [];
  c.addEventListener('denied', (event) => denied.push(event.detail.reason));
  const latest = await a.replaceLink('edit');
  await until(() => c.status.denied === 'capabilityRevoked', 'C refused for the replaced edit link');
  assert.equal(await c.adoptAccess(await store.loadAccess(ROOM)), true);
  await synced(c);
  assert.deepEqual([c.status.denied, c.rights], [null, 'admin'], 'the same admin, with the store’s credentials');
  assert.deepEqual(c.access, latest);
  c.commit([stroke(2)]);
  await until(() => a.board.changeCount === 2 && b.board.changeCount === 2, 'C’s stroke everywhere');
  assert.deepEqual(denied, ['capabilityRevoked']);

  // Another key's record, or another room's, is not taken; nor anything by a closed session.
  assert.equal(await c.adoptAccess({ ...latest, key: newBoardAccess(ROOM).key, view: board.view }), false);
  assert.equal(await c.adoptAccess(null), false);
  await c.close();
  assert.equal(await c.adoptAccess({ ...latest, view: board.view }), false);
  await a.close();
  await b.close();
});
