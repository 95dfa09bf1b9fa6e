// How images come and go in the page: files checked by their bytes (js/app/image-files.js), an upload that
// reports its progress (upload-fetch.js), the decoded pixels kept within a budget (image-bitmaps.js), the
// loader fed in-view first (image-loading.js), the words of the sync indicator (image-progress.js), and an
// image added only once its upload is done (image-adder.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBlobCache } from '../../js/blobs/blob-cache.js';
import { MAXIMUM_BLOB_BYTES, SEAL_OVERHEAD } from '../../js/blobs/blob-transfer.js';
import { ImageAdder } from '../../js/app/image-adder.js';
import { ImageBitmaps } from '../../js/app/image-bitmaps.js';
import { carriesFiles, filesIn, imageLimit, readImageFile } from '../../js/app/image-files.js';
import { ImageLoading } from '../../js/app/image-loading.js';
import { ImageProgress, imageProgressText } from '../../js/app/image-progress.js';
import { uploadFetch } from '../../js/app/upload-fetch.js';
import { strokeId } from '../../js/model/ids.js';
import { toolContext } from './support.mjs';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const file = (bytes, name = 'a.png') => ({ name, size: bytes.length, arrayBuffer: async () => bytes.slice().buffer });
const blobName = (n) => n.toString(16).padStart(2, '0').repeat(32);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a file is an image by its first bytes, and one over the limit is refused before it is read', async () => {
  assert.deepEqual(await readImageFile(file(PNG), 100), { bytes: PNG, type: 'image/png' });
  await assert.rejects(readImageFile(file(new TextEncoder().encode('hello'), 'a.png'), 100), { code: 'notAnImage' });
  let read = false;
  const large = { size: 101, arrayBuffer: async () => ((read = true), new ArrayBuffer(101)) };
  await assert.rejects(readImageFile(large, 100), { code: 'tooLarge', message: /too large/ });
  assert.equal(read, false);
  assert.equal(imageLimit(false), MAXIMUM_BLOB_BYTES);
  assert.equal(imageLimit(true), MAXIMUM_BLOB_BYTES - SEAL_OVERHEAD);
});

test('the files of a paste or a drop: its files, else its items of kind file', () => {
  const a = file(PNG);
  assert.deepEqual(filesIn({ files: [a], items: [] }), [a]);
  assert.deepEqual(filesIn({ files: [], items: [{ kind: 'string' }, { kind: 'file', getAsFile: () => a }] }), [a]);
  assert.deepEqual(filesIn(null), []);
  assert.equal(carriesFiles({ types: ['text/plain', 'Files'] }), true);
  assert.equal(carriesFiles({ types: ['text/plain'] }), false);
});

test('an upload through XMLHttpRequest reports what it sent and answers as fetch does', async () => {
  const sent = [];
  class FakeXHR {
    upload = new EventTarget();
    listeners = new EventTarget();
    headers = {};
    open(method, url) {
      Object.assign(this, { method, url });
    }
    setRequestHeader(name, value) {
      this.headers[name] = value;
    }
    addEventListener(type, listener) {
      this.listeners.addEventListener(type, listener);
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\nretry-after: 3\r\n';
    }
    send(body) {
      this.body = body;
      FakeXHR.last = this;
      const progress = (loaded) => Object.assign(new Event('progress'), { loaded, total: 10, lengthComputable: true });
      this.upload.dispatchEvent(progress(4));
      this.upload.dispatchEvent(progress(10));
      Object.assign(this, { status: 429, statusText: 'Too Many Requests', response: new TextEncoder().encode('{"error":"slow down"}').buffer });
      this.listeners.dispatchEvent(new Event('load'));
    }
  }
  const fetch = uploadFetch((loaded, total) => sent.push([loaded, total]), { XMLHttpRequest: /** @type {any} */ (FakeXHR) });
  const answer = await fetch('http://x/rooms/r/blobs/b', { method: 'PUT', headers: { Authorization: 'Bearer c' }, body: PNG });
  assert.deepEqual(sent, [[4, 10], [10, 10]]);
  assert.equal(FakeXHR.last.method, 'PUT');
  assert.equal(FakeXHR.last.headers.Authorization, 'Bearer c');
  assert.equal(FakeXHR.last.body, PNG);
  assert.equal(answer.status, 429);
  assert.equal(answer.headers.get('retry-after'), '3');
  assert.deepEqual(await answer.json(), { error: 'slow down' });
});

test('decoded images are kept within a budget of pixels, least recently drawn dropped first, never one on screen', () => {
  let now = 0;
  const closed = [];
  const bitmap = (name, side) => ({ width: side, height: side, close: () => closed.push(name) });
  const bitmaps = new ImageBitmaps({ maximumPixels: 250, now: () => now });
  bitmaps.put('a', bitmap('a', 10));
  bitmaps.put('b', bitmap('b', 10));
  now = 5_000;
  bitmaps.get('a');
  bitmaps.put('c', bitmap('c', 10));
  assert.deepEqual(closed, ['b'], 'b was drawn least recently');
  assert.equal(bitmaps.pixels, 200);
  assert.equal(bitmaps.has('a') && bitmaps.has('c') && !bitmaps.has('b'), true);
  // Drawn a moment ago: kept past the budget rather than decoded again and again.
  bitmaps.put('d', bitmap('d', 15));
  assert.deepEqual(closed, ['b']);
  assert.equal(bitmaps.pixels, 425);
  now = 10_000;
  bitmaps.put('e', bitmap('e', 1));
  assert.deepEqual(closed, ['b', 'a', 'c']);
});

test('the indicator counts images as they come, and says what is uploading', () => {
  const progress = new ImageProgress();
  const idle = { pending: 0, loading: 0, loadedBytes: 0, totalBytes: 0, failed: 0 };
  assert.deepEqual(imageProgressText(progress.summary(idle)), { state: '', text: '' });
  const first = progress.summary({ pending: 3, loading: 2, loadedBytes: 0, totalBytes: 3 * 1024 * 1024, failed: 0 });
  assert.deepEqual(imageProgressText(first), { state: 'loading', text: 'Images 0 of 3 · 0 B of 3.0 MB' });
  progress.arrived(1024 * 1024);
  const later = progress.summary({ pending: 2, loading: 2, loadedBytes: 512 * 1024, totalBytes: 2 * 1024 * 1024, failed: 0 });
  assert.deepEqual(imageProgressText(later), { state: 'loading', text: 'Images 1 of 3 · 1.5 MB of 3.0 MB' });
  assert.equal(imageProgressText(progress.summary(idle)).text, '', 'all here: nothing to say');
  progress.arrived(99);
  assert.equal(progress.summary({ ...idle, pending: 1, totalBytes: 2048 }).loading.done, 0, 'a new batch counts afresh');
  const key = {};
  progress.upload(key, 2048, 4096);
  assert.deepEqual(imageProgressText(progress.summary({ ...idle, failed: 1 })), {
    state: 'uploading',
    text: 'Uploading image · 2 KB of 4 KB · 1 image not loaded yet',
  });
  progress.upload(key, null);
  assert.deepEqual(imageProgressText(progress.summary({ ...idle, failed: 2 })), { state: 'failed', text: '2 images not loaded yet' });
});

/** A page's images over a fake network: downloads wait until the test lets them finish. */
function loadingSetup() {
  const context = toolContext();
  const downloads = [];
  const invalidated = [];
  const decoded = [];
  const images = new ImageLoading({
    download: (image, onProgress) =>
      new Promise((resolve) => downloads.push({ blob: image.blob, onProgress, finish: () => resolve(new Uint8Array(image.bytes)) })),
    cache: new MemoryBlobCache(),
    scene: context.scene,
    view: () => context.viewport.visibleRect(),
    invalidate: (rects) => invalidated.push(...rects),
    decode: async (bytes) => {
      decoded.push(bytes.length);
      return { bitmap: { width: 4, height: 4 }, natural: { width: 4, height: 4 } };
    },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
  });
  const place = (n, corner) => {
    const next = context.session.nextChange;
    context.session.commit([{ op: 'addImage', blob: blobName(n), bytes: 100 * n, type: 'image/png', at: corner, width: 50, height: 50 }]);
    return strokeId(next, 0);
  };
  return { context, images, downloads, invalidated, decoded, place };
}

test('images in view are fetched first, then the rest, a few at a time; their bars and the indicator follow', async () => {
  const { images, downloads, invalidated, decoded, place } = loadingSetup();
  // The view is 800 × 600 at the origin: two images far away, then two in view.
  place(1, [5000, 5000]);
  place(2, [6000, 6000]);
  const inView = place(3, [100, 100]);
  place(4, [300, 300]);
  images.refresh();
  await settle();
  assert.deepEqual(downloads.map((d) => d.blob), [blobName(3), blobName(4), blobName(1)], 'in view first, three at a time');
  assert.equal(images.fraction(blobName(3)), 0);
  assert.equal(images.fraction(blobName(2)), 0, 'waiting counts as not started');
  downloads[0].onProgress(150, 300);
  assert.equal(images.fraction(blobName(3)), 0.5);
  const summary = images.summary();
  assert.deepEqual([summary.loading.done, summary.loading.count], [0, 4]);
  downloads[0].finish();
  await settle();
  await settle();
  assert.equal(images.arrived(blobName(3)), true);
  assert.equal(images.decoded(blobName(3)), true, 'in view: decoded as it comes');
  assert.deepEqual(decoded, [300]);
  assert.ok(invalidated.length > 0, 'its box repaints');
  assert.equal(images.fraction(blobName(3)), null);
  assert.equal(images.pixels({ image: { blob: blobName(3), bytes: 300, type: 'image/png' } }).width, 4);
  assert.deepEqual(downloads.map((d) => d.blob).slice(3), [blobName(2)], 'the next one starts');
  assert.equal(images.summary().loading.done, 1);
  // Far away: here, but decoded only when painted.
  downloads[2].finish();
  await settle();
  await settle();
  assert.equal(images.arrived(blobName(1)), true);
  assert.equal(images.decoded(blobName(1)), false);
  assert.equal(images.pixels({ image: { blob: blobName(1), bytes: 100, type: 'image/png' } }), null);
  await settle();
  await settle();
  assert.equal(images.decoded(blobName(1)), true);
  assert.ok(inView);
});

test('bytes this page sent show at once, and an export finds what the cache holds', async () => {
  const { images, downloads, place } = loadingSetup();
  const held = { blob: blobName(7), bytes: 3, type: 'image/png' };
  const bitmap = { width: 2, height: 2 };
  images.hold(held, Uint8Array.from([1, 2, 3]), bitmap);
  place(7, [10, 10]);
  images.refresh();
  assert.equal(downloads.length, 0, 'nothing to fetch');
  assert.equal(images.pixels({ image: held }), bitmap);
  assert.deepEqual(images.bytesAtHand(held), Uint8Array.from([1, 2, 3]));
  await settle();
  assert.deepEqual(await images.cachedBytes(blobName(7)), Uint8Array.from([1, 2, 3]), 'kept for offline');
  const bytes = await images.bytesFor([{ image: held }, {}]);
  assert.deepEqual(bytes(held), Uint8Array.from([1, 2, 3]));
  const pixels = await images.pixelsFor([{ image: held }]);
  assert.equal(pixels({ image: held }), bitmap);
});

/** An adder over fakes: uploads answer at once with a name of the bytes' length. */
function adderSetup({ canAdd = () => null, upload } = {}) {
  const context = toolContext();
  const notices = [];
  const progress = [];
  const held = [];
  const images = { upload: (...args) => progress.push(args), hold: (image) => held.push(image), cachedBytes: async () => null };
  const adder = new ImageAdder({
    session: { blobAccess: { syncUrl: 'ws://x/sync', room: 'r', capability: '', key: null }, encrypted: false },
    images: /** @type {any} */ (images),
    viewport: context.viewport,
    commit: (operations) => context.commit(operations),
    notify: (text, options) => notices.push([text, options?.alert ?? false]),
    canAdd,
    upload: upload ?? (async ({ bytes, fetch }) => (fetch(bytes.length, bytes.length), { blob: blobName(bytes.length), bytes: bytes.length })),
    decode: async () => ({ bitmap: { width: 200, height: 100 }, natural: { width: 200, height: 100 } }),
    fetchFor: (onProgress) => /** @type {any} */ (onProgress),
  });
  return { context, adder, notices, progress, held };
}

test('an image is uploaded, then added in one change at its size, centred where it was dropped', async () => {
  const { context, adder, notices, progress, held } = adderSetup();
  const before = context.session.committed.length;
  assert.deepEqual(await adder.add([file(PNG)], [400, 300]), [blobName(PNG.length)]);
  assert.equal(context.session.committed.length, before + 1);
  const [operation] = context.session.committed.at(-1).operations;
  assert.deepEqual(operation, { op: 'addImage', blob: blobName(12), bytes: 12, type: 'image/png', at: [300, 250], width: 200, height: 100 });
  assert.deepEqual(held.map((image) => image.blob), [blobName(12)], 'held before the change, so it shows at once');
  assert.deepEqual(progress.map(([, sent]) => sent), [0, 12, null], 'the upload in the indicator, then gone');
  assert.deepEqual(notices, []);
  // Without a point, the view's middle (800 × 600); several files step down and right.
  await adder.add([file(PNG), file(PNG)]);
  const [first, second] = context.session.committed.slice(-2).map((change) => change.operations[0].at);
  assert.deepEqual([first, second], [[300, 250], [316, 266]]);
});

test('what is no image, too large, refused by the server or not allowed here is said, and nothing is added', async () => {
  const { context, adder, notices } = adderSetup({ upload: async () => Promise.reject(Object.assign(new Error('the server answered HTTP 403'), { code: 'refused' })) });
  const before = context.session.committed.length;
  await adder.add([file(new TextEncoder().encode('plain text'), 'notes.txt'), file(PNG, 'ok.png')]);
  assert.equal(context.session.committed.length, before);
  assert.deepEqual(notices, [
    ['Could not add “notes.txt”: the file is not a PNG, JPEG, GIF or WebP image', true],
    ['Could not add “ok.png”: the server answered HTTP 403', true],
  ]);
  const viewOnly = adderSetup({ canAdd: () => 'View only' });
  await viewOnly.adder.add([file(PNG)]);
  assert.deepEqual(viewOnly.notices, [['View only', false]]);
  assert.equal(viewOnly.context.session.committed.length, 0);
  const huge = { name: 'huge.png', size: MAXIMUM_BLOB_BYTES + 1, arrayBuffer: async () => assert.fail('read') };
  await viewOnly.adder.add([]);
  const limited = adderSetup();
  await limited.adder.add([huge]);
  assert.match(limited.notices[0][0], /^Could not add “huge.png”: the image is too large: at most 32 MiB$/);
});
