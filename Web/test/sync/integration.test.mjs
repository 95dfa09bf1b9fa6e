// The session against the REAL server (`inkwell serve`) and the Swift peer (`inkwell join`).
//
// Needs the inkwell binary (INKWELL_BINARY, default .build/debug/inkwell) and a WebSocket: Node 20
// has one behind --experimental-websocket, so without it this file runs itself again in a child node
// with the flag. Skipped, saying why, when the binary is missing.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { newBoardAccess, withLink } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { randomFor } from './support/random.mjs';
import { hasBinary, INKWELL_BINARY, joinPeer, startServer, temporaryDirectory } from './support/server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';

const skip = !hasBinary() && `no inkwell binary at ${INKWELL_BINARY} (set INKWELL_BINARY)`;

if (!skip && typeof globalThis.WebSocket !== 'function') {
  test('integration tests, in a child node with --experimental-websocket', { timeout: 300_000 }, (t) => {
    const child = spawnSync(process.execPath, ['--experimental-websocket', '--test', '--test-reporter=spec', fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      // Without the parent runner's context, so the child reports as a run of its own.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    });
    for (const line of child.stdout.split('\n')) if (/^\s*[✔✖]/.test(line)) t.diagnostic(line.trim());
    assert.equal(child.status, 0, `${child.stdout}\n${child.stderr}`);
  });
} else {
  /** A WebSocket that counts the bytes it receives, to see how much a session downloads. */
  const counted = { bytes: 0 };
  class CountingWebSocket extends globalThis.WebSocket {
    constructor(url) {
      super(url);
      this.addEventListener('message', (event) => {
        counted.bytes += event.data.byteLength ?? 0;
      });
    }
  }
  /** Sessions opened by the running test, closed after it whatever happens. */
  let opened = [];
  const real = async (options) => {
    const session = await open({ WebSocket: CountingWebSocket, ...options });
    opened.push(session);
    return session;
  };
  const closeAll = async () => {
    await Promise.all(opened.map((session) => session.close()));
    opened = [];
  };

  /** A scribble of `count` seeded random points: incompressible enough to weigh what a real one does. */
  const scribble = (random, count) => ({
    op: 'addStroke',
    colour: 0x222222ff,
    width: 2,
    points: Array.from({ length: count }, () => [random.int(0, 4_000) / 4, random.int(0, 4_000) / 4]),
    pressures: null,
  });

  test('two sessions in one room converge to the same board', { skip, timeout: 60_000 }, async () => {
    const data = temporaryDirectory();
    const server = await startServer({ data: data.path });
    try {
      const alice = await real({ serverURL: server.url, storage: new MemoryStore(), room: 'converge', name: 'Alice' });
      const bob = await real({ serverURL: server.url, storage: new MemoryStore(), room: 'converge', name: 'Bob' });
      for (let i = 0; i < 20; i++) (i % 2 === 0 ? alice : bob).commit([stroke(i * 5)]);
      const target = bob.board.strokes()[0].id;
      alice.commit([{ op: 'erase', stroke: target, intervals: [[0.5, 1.5]] }]);
      bob.undo();
      await until(() => alice.board.changeCount === 22 && bob.board.changeCount === 22, 'every change on both');
      await Promise.all([synced(alice), synced(bob)]);
      assert.equal(alice.board.hash(), bob.board.hash());
      await until(() => alice.peers.has(bob.device) && bob.peers.has(alice.device), 'each to see the other');
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
    }
  });

  test('edits made while the server is down sync when it starts, and a restart resumes from the watermark', { skip, timeout: 60_000 }, async (t) => {
    const random = randomFor(t);
    const data = temporaryDirectory();
    const probe = await startServer({ data: data.path });
    const { port, url } = probe;
    await probe.stop();

    const store = new MemoryStore();
    const offline = await real({ serverURL: url, storage: store, room: 'late', backoff: { minimum: 20, maximum: 200 } });
    for (let i = 0; i < 30; i++) offline.commit([scribble(random, 100)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(offline.status.state, 'offline');
    assert.ok(offline.status.bytesToUpload > 0);
    const server = await startServer({ data: data.path, port });
    try {
      await synced(offline, 20_000);
      const hash = offline.board.hash();
      await closeAll();

      // A fresh replica downloads everything; the restarted one only what came since.
      counted.bytes = 0;
      const fresh = await real({ serverURL: url, storage: new MemoryStore(), room: 'late' });
      await synced(fresh);
      assert.equal(fresh.board.hash(), hash);
      const full = counted.bytes;
      fresh.commit([stroke(1_000)]);
      await synced(fresh);
      await closeAll();

      counted.bytes = 0;
      const restarted = await real({ serverURL: url, storage: store, room: 'late' });
      assert.equal(restarted.board.hash(), hash, 'shown from the store before any download');
      await synced(restarted);
      await until(() => restarted.board.changeCount === 31, 'the one new change');
      t.diagnostic(`downloaded ${full} bytes fresh, ${counted.bytes} after a restart`);
      assert.ok(counted.bytes < full / 10, `a restart downloads little: ${counted.bytes} bytes against ${full} for everything`);
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
    }
  });

  test('a Swift `inkwell join` peer and a JS session see each other’s strokes', { skip, timeout: 120_000 }, async () => {
    const data = temporaryDirectory();
    const server = await startServer({ data: data.path });
    try {
      const session = await real({ serverURL: server.url, storage: new MemoryStore(), room: 'mixed' });
      for (let i = 0; i < 5; i++) session.commit([stroke(i * 20, 10, 0xcc3300ff)]);
      await synced(session);
      const peer = await joinPeer({ room: 'mixed', url: server.url, draw: 5, seed: 7 });
      assert.equal(peer.changes, 10, peer.line);
      assert.equal(peer.strokes, 10, peer.line);
      await until(() => session.board.changeCount === 10, 'the Swift peer’s strokes');
      await synced(session);
      assert.equal(session.board.hash(), peer.hash, peer.line);
      assert.equal(session.board.visibleStrokeCount, 10);
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
    }
  });

  test('a guarded, encrypted board on a server without open rooms: made, opened by its links, a link replaced', { skip, timeout: 60_000 }, async () => {
    const data = temporaryDirectory();
    const server = await startServer({ data: data.path, openRooms: false });
    try {
      const board = newBoardAccess('Kq3Zt0aLw9PxYbN2mR7sVc');
      const holder = (kind, record = board) => withLink(null, { room: board.room, capability: record[kind], key: record.key });
      const maker = await real({ serverURL: server.url, storage: new MemoryStore(), room: board.room, access: board });
      maker.commit([stroke(0)]);
      await synced(maker);
      assert.equal(maker.rights, 'admin');
      const editor = await real({ serverURL: server.url, storage: new MemoryStore(), room: board.room, access: holder('edit') });
      const viewer = await real({ serverURL: server.url, storage: new MemoryStore(), room: board.room, access: holder('view') });
      await Promise.all([synced(editor), synced(viewer)]);
      assert.deepEqual([editor.rights, viewer.rights], ['edit', 'view']);
      editor.commit([stroke(30)]);
      await until(() => maker.board.changeCount === 2 && viewer.board.changeCount === 2, 'the editor’s stroke everywhere');
      assert.equal(viewer.board.hash(), maker.board.hash());
      // Presence goes sealed through the real server's relay, and opens at the other end.
      maker.setPresence({ name: 'Maker', cursor: [5, 6] });
      await until(() => editor.peers.get(maker.device)?.name === 'Maker' && viewer.peers.get(maker.device)?.cursor?.[1] === 6, 'the maker’s presence');
      assert.equal(maker.peers.has(viewer.device), false, 'a view link says nothing');

      // A link to a board not on the server yet waits, asking again on its connection, and opens once
      // the board's maker has connected.
      const late = newBoardAccess('LateBoardQ7sXw2mB9kLpR');
      const early = await real({ serverURL: server.url, storage: new MemoryStore(), room: late.room, access: holder('edit', late), unknownRoomBackoff: { first: 50, longest: 200 } });
      await until(() => early.status.waiting, 'no such room yet, without open rooms');
      assert.equal(early.status.denied, null);
      early.commit([stroke(7)]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(early.status.waiting, true, 'still waiting after asking again');
      const lateMaker = await real({ serverURL: server.url, storage: new MemoryStore(), room: late.room, access: late });
      await Promise.all([synced(lateMaker), synced(early)]);
      await until(() => lateMaker.board.changeCount === 1, 'the early link’s stroke at the maker’s');
      assert.equal(early.rights, 'edit');

      const record = await maker.replaceLink('view');
      await until(() => viewer.status.denied === 'capabilityRevoked', 'the old view link closed by the server');
      assert.match(viewer.status.detail, /no longer works/);
      const newViewer = await real({ serverURL: server.url, storage: new MemoryStore(), room: board.room, access: holder('view', record) });
      await synced(newViewer);
      assert.equal(newViewer.board.hash(), maker.board.hash());
      const stale = await real({ serverURL: server.url, storage: new MemoryStore(), room: board.room, access: holder('view') });
      await until(() => stale.status.denied === 'notAllowed', 'the replaced link refused on a new visit');
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
    }
  });
}
