// Sessions in a real browser, with the page's defaults (IndexedDB, Web Locks, the browser's WebSocket),
// against the real server; then the Swift peer checks it holds the same board. Skipped, saying why,
// without Chromium or the inkwell binary.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHROMIUM, startPageServer } from './support/browser.mjs';
import { hasBinary, INKWELL_BINARY, joinPeer, startServer, temporaryDirectory } from './support/server.mjs';

const skip =
  (CHROMIUM === undefined && 'no Chromium: set CHROMIUM to run it') ||
  (!hasBinary() && `no inkwell binary at ${INKWELL_BINARY} (set INKWELL_BINARY)`);

/**
 * Opens a harness page (support/NAME-harness.html) in Chromium on the room, against a real server that
 * allows the pages' origin, and hands its report and the server's URL to `check`.
 * @param {string} name @param {string} room @param {(report: any, url: string) => Promise<void>} check
 */
async function inChromium(name, room, check) {
  const pages = await startPageServer();
  const data = temporaryDirectory();
  // The page comes from another origin than the server's: the server must be told to allow it.
  const server = await startServer({ data: data.path, allowOrigin: pages.origin });
  try {
    const report = await pages.run(`/test/sync/support/${name}-harness.html?room=${room}&server=${encodeURIComponent(server.url)}`);
    assert.equal(report.error, undefined, report.error);
    await check(report, server.url);
  } finally {
    await server.stop();
    await pages.close();
    data.cleanup();
  }
}

test('two tabs and a reload in Chromium, synced with the server and the Swift peer', { skip, timeout: 120_000 }, () =>
  inChromium('session', 'tabs', async (report, url) => {
    assert.deepEqual(
      { ...report, hash: undefined },
      { twoTimelines: true, secondSeesStored: 5, sameHash: true, sameTimeline: true, reloadedFromStore: true, nextSeq: 6, hash: undefined },
    );
    const peer = await joinPeer({ room: 'tabs', url });
    assert.equal(peer.changes, 7, peer.line);
    assert.equal(peer.hash, report.hash, peer.line);
  }),
);

test('a page compacts its IndexedDB store in Chromium while another tab is open; a reload shows the same board and takes a fresh seq', { skip, timeout: 120_000 }, () =>
  inChromium('compaction', 'compacted', async (report, url) => {
    assert.deepEqual(
      { ...report, hash: undefined },
      {
        pruned: 260,
        sameHash: true,
        stored: 2,
        prunedThrough: [262],
        sameTimeline: true,
        reloadedFromStore: true,
        reloadedCount: 2,
        nextSeq: 263,
        hash: undefined,
      },
    );
    const peer = await joinPeer({ room: 'compacted', url });
    assert.equal(peer.changes, 263, peer.line);
    assert.equal(peer.hash, report.hash, peer.line);
  }),
);
