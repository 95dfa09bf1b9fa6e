/**
 * Fills the page's own IndexedDB store with a big board, as if it had been received: `strokes` scribbles
 * of `points` points (bench-strokes.js), each one change, encoded and stored by the store's `storeRemote`
 * as a catch-up stores what arrives. Benchmarks/web-load.py then opens the room in the real page and times
 * how long it takes to show it. Query: ?room=…&strokes=…&points=…&seed=…&pressure=1&batch=…
 *
 * The result is `window.seedResult`: `{changes, bytes, ms}`, or `{error}`.
 */

import { boardSide, random, scribble } from './bench-strokes.js';
import { Author } from '../js/model/author.js';
import { Board } from '../js/model/board.js';
import { storedChange } from '../js/sync/store-records.js';
import { openIndexedDBStore } from '../js/sync/store-indexeddb.js';
import { encodeChange } from '../js/wire/change.js';
import { SCHEMA_VERSION } from '../js/wire/limits.js';

const params = new URLSearchParams(location.search);
const ROOM = params.get('room') ?? 'bench-load';
const STROKES = Number(params.get('strokes') ?? 40_000);
const POINTS = Number(params.get('points') ?? 50);
const SEED = Number(params.get('seed') ?? 1);
const PRESSURE = params.get('pressure') === '1';
/** Changes a transaction, as a catch-up stores a frame's packs together. */
const BATCH = Number(params.get('batch') ?? 2_000);
const report = document.getElementById('report');

async function seed() {
  const started = performance.now();
  const store = await openIndexedDBStore();
  const next = random(SEED);
  const side = boardSide(STROKES);
  const board = new Board('main');
  // Stamped in the past: a change stamped ahead of the clock would be kept aside instead of shown.
  let wall = Date.now() - 86_400_000;
  const author = new Author({ replica: '0c'.repeat(16), now: () => ++wall });
  let batch = [];
  let bytes = 0;
  for (let s = 0; s < STROKES; s++) {
    const change = author.makeChange(board, [scribble(next, side, POINTS, PRESSURE)]);
    board.apply(change);
    const encoded = encodeChange(change);
    bytes += encoded.length;
    batch.push(storedChange(ROOM, change, encoded, SCHEMA_VERSION));
    if (batch.length === BATCH || s === STROKES - 1) {
      await store.storeRemote(ROOM, batch);
      batch = [];
      report.textContent = `stored ${s + 1} of ${STROKES}`;
    }
  }
  return { changes: STROKES, points: STROKES * POINTS, bytes, ms: Math.round(performance.now() - started) };
}

seed().then(
  (result) => {
    report.textContent = JSON.stringify(result);
    window.seedResult = result;
  },
  (error) => {
    report.textContent = `failed: ${error?.message ?? error}`;
    window.seedResult = { error: String(error?.stack ?? error) };
  },
);
