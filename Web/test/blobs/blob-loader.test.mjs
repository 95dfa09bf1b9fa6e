// The loader: images in view first, a few at a time, each blob once, from the cache when it is there, with
// progress, and a failed one asked for again after a while.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBlobCache } from '../../js/blobs/blob-cache.js';
import { BlobLoader } from '../../js/blobs/blob-loader.js';

const image = (n, bytes = 100) => ({ blob: String(n).padStart(64, '0'), bytes, type: 'image/png' });

/** A download that waits until the test lets it finish. */
function controlledDownloads() {
  const started = [];
  const download = (ref, onProgress) =>
    new Promise((resolve, reject) => {
      started.push({ ref, onProgress, finish: () => resolve(new Uint8Array(ref.bytes).fill(7)), fail: reject });
    });
  return { started, download };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('images in view go first, three at a time, and each blob is fetched once', async () => {
  const { started, download } = controlledDownloads();
  const loader = new BlobLoader({ download, cache: new MemoryBlobCache() });
  loader.setVisible([image(5).blob]);
  for (const n of [1, 2, 3, 4, 5]) assert.equal(loader.want(image(n)), null);
  loader.want(image(1));
  await settle();
  // The first is asked for before the others are known; from then on, the one in view first.
  assert.deepEqual(started.map((s) => s.ref.blob), [1, 2, 3].map((n) => image(n).blob));
  started[0].onProgress(40, 100);
  assert.deepEqual(loader.progress, { pending: 5, loading: 3, loadedBytes: 40, totalBytes: 500, failed: 0 });
  started[1].finish();
  await settle();
  await settle();
  assert.equal(started[3].ref.blob, image(5).blob, 'the image in view jumps the queue');
  assert.deepEqual(loader.want(image(2)).bytes, new Uint8Array(100).fill(7));
  assert.equal(started.length, 4, 'a blob that came is not fetched again');
});

test('a cached blob never downloads; a failed one waits, then is asked for again', async () => {
  const cache = new MemoryBlobCache();
  await cache.put(image(1).blob, { bytes: new Uint8Array([1, 2]), type: 'image/png' });
  let now = 0;
  const { started, download } = controlledDownloads();
  const loader = new BlobLoader({ download, cache, now: () => now });
  const loaded = [];
  loader.addEventListener('loaded', (event) => loaded.push(event.detail.blob));
  loader.want(image(1));
  loader.want(image(2));
  await settle();
  await settle();
  assert.deepEqual(loaded, [image(1).blob]);
  assert.equal(started.length, 1);
  started[0].fail(new Error('offline'));
  await settle();
  await settle();
  assert.equal(loader.progress.failed, 1);
  now = 4_000;
  loader.want(image(2));
  await settle();
  assert.equal(started.length, 1, 'not yet');
  now = 5_000;
  loader.want(image(2));
  await settle();
  await settle();
  assert.equal(started.length, 2, 'asked for again');
  started[1].finish();
  await settle();
  await settle();
  assert.deepEqual((await cache.get(image(2).blob)).bytes, new Uint8Array(100).fill(7), 'kept for offline');
});
