// The session against the REAL server (`inkwell serve`) and the Swift peer (`inkwell join`).
//
// Needs the inkwell binary (INKWELL_BINARY, default .build/debug/inkwell) and a WebSocket: Node 20
// has one behind --experimental-websocket, so without it this file runs itself again in a child node
// with the flag. Without the binary the tests are left out, saying why; on CI (CI=true), where the binary
// is built first, a missing binary fails instead.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { newBoardAccess, withLink } from '../../js/sync/access.js';
import { syncURL } from '../../js/sync/network.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { changeOrigin } from '../../js/wire/change.js';
import { SyncProtocol } from '../../js/wire/limits.js';
import { roomKeyText } from '../../js/wire/room-key.js';
import { decodeServerFrame, encodeClientFrame } from '../../js/wire/sync.js';
import { fromHex, loadJSON, toHex } from '../wire/support.mjs';
import { randomFor } from './support/random.mjs';
import { hasBinary, INKWELL_BINARY, joinPeer, startServer, temporaryDirectory } from './support/server.mjs';
import { open, stroke, synced, until } from './support/sessions.mjs';

const missing = hasBinary() ? null : `no inkwell binary at ${INKWELL_BINARY}: build it with \`swift build\`, or set INKWELL_BINARY`;

if (missing !== null) {
  if (process.env.CI === 'true') {
    test('the inkwell binary is there for the integration tests', () => assert.fail(missing));
  } else {
    test('integration tests against the real server', { skip: missing }, () => {});
  }
} else if (typeof globalThis.WebSocket !== 'function') {
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

  test('two sessions in one room converge to the same board', { timeout: 60_000 }, async () => {
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

  test('edits made while the server is down sync when it starts, and a restart resumes from the watermark', { timeout: 60_000 }, async (t) => {
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

  test('a Swift `inkwell join` peer and a JS session see each other’s strokes', { timeout: 120_000 }, async () => {
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

  test('a guarded, encrypted board on a server without open rooms: made, opened by its links, a link replaced', { timeout: 60_000 }, async () => {
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

  /**
   * Pushes bytes to a room as a client of its own would: hello, subscribe, push; resolves with the
   * position the server stored them at (the ack's), or rejects with the server's error.
   * @param {string} url @param {string} room @param {Uint8Array} pack
   */
  const pushRaw = (url, room, pack) =>
    new Promise((resolve, reject) => {
      const socket = new globalThis.WebSocket(syncURL(url));
      socket.binaryType = 'arraybuffer';
      const send = (frame) => socket.send(encodeClientFrame(frame));
      socket.addEventListener('open', () =>
        send({
          type: 'hello',
          protocolVersion: SyncProtocol.version,
          minimumProtocolVersion: SyncProtocol.minimumVersion,
          device: crypto.getRandomValues(new Uint8Array(16)),
          agent: 'inkwell-test',
        }),
      );
      socket.addEventListener('message', (event) => {
        const frame = decodeServerFrame(new Uint8Array(event.data));
        if (frame.type === 'welcome') send({ type: 'subscribe', room, after: 0 });
        else if (frame.type === 'access') send({ type: 'push', room, pack });
        else if (frame.type === 'ack') {
          socket.close();
          resolve(frame.serverSeq);
        } else if (frame.type === 'error') {
          socket.close();
          reject(new Error(frame.message));
        }
      });
      socket.addEventListener('error', () => reject(new Error('the socket failed')));
    });

  /** A counter of the server's /metrics, 0 while it has none. @param {string} url @param {string} name */
  const metric = async (url, name) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split('\n').find((row) => row.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.split(' ')[1]);
  };

  test('a room compacted on a Swift-made snapshot: a new page starts from it, through the real server’s rebase', { timeout: 60_000 }, async () => {
    // Conformance/snapshots.json's sealed part, made by Swift: one part standing for position 12, six changes
    // of two timelines, signed by its author and sealed with the room's key.
    const vector = loadJSON('snapshots.json').parts.find((part) => part.key !== undefined);
    const access = { room: vector.room, admin: null, edit: null, view: null, key: roomKeyText(fromHex(vector.key)) };
    const data = temporaryDirectory();
    // Authors and devices count as present for about a second, and compaction looks every 100 ms.
    const server = await startServer({ data: data.path, retentionHours: 0.0003, compactionInterval: 0.1 });
    try {
      // Twelve positions for it to stand for: another page's strokes, one pack each.
      const writer = await real({ serverURL: server.url, storage: new MemoryStore(), room: vector.room, access });
      for (let i = 0; i < 12; i++) {
        writer.commit([stroke(i * 10)]);
        await synced(writer);
      }
      await closeAll();
      assert.equal(await pushRaw(server.url, vector.room, fromHex(vector.bytes)), 13, 'the part is stored after them');
      // Its author checked it by making it; once the writer no longer counts as present, the packs it
      // stands for are dropped.
      const deadline = Date.now() + 20_000;
      while ((await metric(server.url, 'inkwell_packs_compacted_total')) < 12) {
        if (Date.now() > deadline) assert.fail('the server did not drop the packs the snapshot stands for');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const store = new MemoryStore();
      const fresh = await real({ serverURL: server.url, storage: store, room: vector.room, access });
      const events = [];
      fresh.addEventListener('snapshot', (event) => events.push(event.detail));
      await synced(fresh);
      assert.deepEqual(events, [{ position: 12, accepted: true, changes: 6, fresh: 6, reason: null }]);
      const room = await store.loadRoom(vector.room);
      assert.equal(room.watermark, 13, 'the watermark past the snapshot and its part');
      // The vector's changes are stamped in 2027: kept aside until this page's clock gets there, by the
      // rule every received change is held to; they are the snapshot's very bytes.
      const kept = [...room.changes.map((change) => change.bytes), ...room.aside.filter((item) => item.kind === 'change').map((item) => item.bytes)];
      assert.deepEqual(kept.map(toHex).sort(), [...vector.changes].sort());
      const ahead = kept.filter((bytes) => changeOrigin(bytes).stamp.wall > Date.now() + SyncProtocol.maximumStampLeadMilliseconds).length;
      assert.equal(fresh.diagnostics.changesAhead, ahead);
      assert.equal(fresh.board.changeCount, 6 - ahead);
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
    }
  });

  test('a page’s snapshot, checked by a Swift peer, compacts the real server’s room; Swift and a page start from it', { timeout: 240_000 }, async () => {
    const room = 'page-snapshot';
    const data = temporaryDirectory();
    const peerData = temporaryDirectory('inkwell-peer-');
    // Authors count as present for the default thirty days: nothing is dropped until every author has
    // checked the snapshot, the Swift peer included.
    // Its log at info level says what it compacted and how it rebased each device, for a failure's message.
    const server = await startServer({ data: data.path, compactionInterval: 0.1, logLevel: 'info' });
    try {
      const peer = await joinPeer({ room, url: server.url, data: peerData.path, draw: 2, seed: 11 });
      assert.equal(peer.changes, 2, peer.line);

      // Drawn offline, then shared: ten strokes, five of them undone, then enough more that the page
      // settles the first ones, so the undone strokes stop mattering.
      const store = new MemoryStore();
      const page = await real({ serverURL: server.url, storage: store, room, paused: true, snapshotThreshold: 700, snapshotDelay: 0 });
      for (let i = 0; i < 10; i++) page.commit([stroke(i * 10, 3, 0x884400ff)]);
      for (let i = 0; i < 5; i++) page.undo();
      for (let i = 0; i < 741; i++) page.commit([stroke(i, 2)]);
      assert.equal(page.board.changeCount, 757, 'ten strokes, five undos, 741 strokes and a settle');
      page.resume();
      await until(() => page.diagnostics.snapshotsSent === 1, 'the page’s snapshot', 60_000);
      await synced(page);
      const heard = (await store.loadRoom(room)).heard;
      assert.deepEqual([heard.changes, heard.held], [759, 749], 'standing for every change, holding all but the undone strokes and their undos');

      // The page stands past its snapshot on its next connection. Nothing is dropped while the Swift peer, an
      // author of the room, has not checked it. Connecting again, it catches up, holds everything the
      // snapshot leaves out, checks that it stopped mattering by its own rule, and says so: its check tells
      // the server it holds what the snapshot stands for, and the server drops those packs.
      await page.close();
      const reopened = await real({ serverURL: server.url, storage: store, room, snapshotThreshold: 700, snapshotDelay: 0 });
      await synced(reopened);
      const dropped = () => metric(server.url, 'inkwell_packs_compacted_total');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await dropped(), 0, 'nothing dropped before the peer checks');
      const checked = await joinPeer({ room, url: server.url, data: peerData.path });
      assert.equal(checked.hash, reopened.board.hash(), checked.line);
      const compacted = async (packs) => {
        const deadline = Date.now() + 30_000;
        while ((await dropped()) < packs) {
          if (Date.now() > deadline) assert.fail(`the server did not drop ${packs} packs on the page’s snapshot`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await compacted(heard.position);
      assert.equal(reopened.diagnostics.snapshotsSent, 0, 'the reload remembers it');

      // A new Swift peer and a new page start from the snapshot: the same drawing, without what stopped mattering.
      const fresh = await joinPeer({ room, url: server.url, logLevel: 'info' });
      assert.equal(fresh.hash, reopened.board.hash(), fresh.line);
      // On failure, what the server stored and what each page refused says where any extra change came from,
      // and the logs of the server and the new peer say how it was rebased.
      const state = async () =>
        JSON.stringify({
          stored: await metric(server.url, 'inkwell_packs_stored_total'),
          duplicates: await metric(server.url, 'inkwell_packs_duplicate_total'),
          dropped: await dropped(),
          snapshot: heard,
          page: page.diagnostics,
          reopened: reopened.diagnostics,
          server: server.log().split('\n').filter((line) => /compact|rebase|snapshot|stored|refus/i.test(line)).slice(-40),
          fresh: fresh.log.split('\n').slice(-40),
        });
      assert.equal(fresh.changes, 749, `${fresh.line} ${await state()}`);
      const newPage = await real({ serverURL: server.url, storage: new MemoryStore(), room, snapshotThreshold: null });
      const events = [];
      newPage.addEventListener('snapshot', (event) => events.push(event.detail));
      await synced(newPage);
      assert.deepEqual(events.map((event) => [event.accepted, event.changes, event.fresh]), [[true, 749, 749]]);
      assert.equal(newPage.board.hash(), reopened.board.hash());
      assert.equal(newPage.board.changeCount, 749);
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
      peerData.cleanup();
    }
  });

  test('a page that started from a lean snapshot and compacts its store sends the next one; a Swift peer checks it, the server compacts on it, and Swift and a page start from it', { timeout: 300_000 }, async (t) => {
    const random = randomFor(t);
    const room = 'lean-page-snapshot';
    const data = temporaryDirectory();
    const peerData = temporaryDirectory('inkwell-peer-');
    const server = await startServer({ data: data.path, compactionInterval: 0.1 });
    const dropped = () => metric(server.url, 'inkwell_packs_compacted_total');
    const compacted = async (packs) => {
      const deadline = Date.now() + 60_000;
      while ((await dropped()) < packs) {
        if (Date.now() > deadline) assert.fail(`the server did not drop ${packs} packs (${await dropped()} so far)`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    /**
     * Draws offline and shares: ten strokes, five undone, and enough more that the first ones are settled;
     * scribbles, so that the server takes a snapshot after them (it asks for 64 KiB of packs since the last).
     */
    const drawAndSettle = (page, x) => {
      page.pause();
      for (let i = 0; i < 10; i++) page.commit([stroke(x + i * 10, 3, 0x884400ff)]);
      for (let i = 0; i < 5; i++) page.undo();
      for (let i = 0; i < 750; i++) page.commit([scribble(random, 24)]);
      page.resume();
    };
    try {
      const peer = await joinPeer({ room, url: server.url, data: peerData.path, draw: 2, seed: 13 });
      assert.equal(peer.changes, 2, peer.line);

      // A first page sends a snapshot that leaves out its five strokes undone for good, and their undos; the
      // Swift peer checks it, and the server drops the packs it stands for.
      const firstStore = new MemoryStore();
      const first = await real({ serverURL: server.url, storage: firstStore, room, snapshotThreshold: 700, snapshotDelay: 0, compactionThreshold: null });
      await synced(first);
      drawAndSettle(first, 0);
      await until(() => first.diagnostics.snapshotsSent === 1, 'the first page’s snapshot', 60_000);
      await synced(first);
      const firstSnapshot = (await firstStore.loadRoom(room)).heard;
      assert.deepEqual([firstSnapshot.changes, firstSnapshot.held], [768, 758]);
      await first.close();
      // Back, it stays: an author of the room that checks what comes next as it comes.
      const author = await real({ serverURL: server.url, storage: firstStore, room, snapshotThreshold: null });
      await synced(author);
      /** What the author made of each snapshot it heard of, live. */
      const heard = [];
      author.addEventListener('snapshot', (event) => heard.push(event.detail));
      await joinPeer({ room, url: server.url, data: peerData.path });
      await compacted(firstSnapshot.position);

      // A new page starts from that snapshot: it holds 758 of the 768 changes it stands for.
      const leanStore = new MemoryStore();
      const lean = await real({ serverURL: server.url, storage: leanStore, room, snapshotThreshold: 700, snapshotDelay: 0, compactionThreshold: 200, compactionDelay: 0 });
      const taken = [];
      lean.addEventListener('snapshot', (event) => taken.push(event.detail));
      await synced(lean);
      assert.deepEqual(taken.map((event) => [event.accepted, event.changes, event.fresh]), [[true, 758, 758]]);
      assert.equal(lean.board.hash(), author.board.hash());
      const cover = (await leanStore.loadRoom(room)).cover;
      assert.equal(cover.reduce((sum, { seq }) => sum + seq, 0), 768, 'the room’s store stands for the whole cut');

      // It draws as the first page did: once the server acknowledged its changes, its store leaves out its own
      // strokes undone for good and their undos, and it sends the room's next snapshot, standing for what the
      // first one stood for without holding it.
      drawAndSettle(lean, 5_000);
      await until(() => lean.diagnostics.snapshotsSent === 1, 'the lean page’s snapshot', 60_000);
      await until(() => lean.diagnostics.changesPruned === 10, 'its store compacted', 60_000);
      await synced(lean);
      const secondSnapshot = (await leanStore.loadRoom(room)).heard;
      assert.ok(secondSnapshot.position > firstSnapshot.position);
      assert.deepEqual([secondSnapshot.changes, secondSnapshot.held], [768 + 766, 758 + 756]);
      assert.equal((await leanStore.loadRoom(room)).changes.length, 758 + 756, 'the store holds what still matters');

      // Reloaded, it shows the same board from what its store kept, and stands past its snapshot. The first
      // page checked it live; the Swift peer, holding everything, checks it on its next visit, and the server
      // drops the packs it stands for.
      const hash = lean.board.hash();
      await lean.close();
      const reloaded = await real({ serverURL: server.url, storage: leanStore, room, snapshotThreshold: 700, snapshotDelay: 0 });
      assert.equal(reloaded.board.hash(), hash, 'the same board from the compacted store');
      await synced(reloaded);
      await until(
        () => heard.some((event) => event.accepted && event.position === secondSnapshot.position),
        'the first page’s check',
        10_000,
        () => JSON.stringify({ heard, position: secondSnapshot.position, diagnostics: author.diagnostics, status: author.status }),
      );
      const checked = await joinPeer({ room, url: server.url, data: peerData.path });
      assert.equal(checked.hash, hash, checked.line);
      await compacted(secondSnapshot.position);
      assert.equal(reloaded.diagnostics.snapshotsSent, 0, 'the reload remembers it');

      // A new Swift peer and a new page start from it: the same drawing, without what stopped mattering.
      const fresh = await joinPeer({ room, url: server.url });
      assert.equal(fresh.hash, hash, fresh.line);
      assert.equal(fresh.changes, 758 + 756, fresh.line);
      const newPage = await real({ serverURL: server.url, storage: new MemoryStore(), room, snapshotThreshold: null });
      const events = [];
      newPage.addEventListener('snapshot', (event) => events.push(event.detail));
      await synced(newPage);
      assert.deepEqual(events.map((event) => [event.accepted, event.changes, event.fresh]), [[true, 758 + 756, 758 + 756]]);
      assert.equal(newPage.board.hash(), hash);
    } finally {
      await closeAll();
      await server.stop();
      data.cleanup();
      peerData.cleanup();
    }
  });
}
