// Blobs to and from the real server: plain and sealed, checked against their names, refused clearly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blobURL, downloadBlob, MAXIMUM_BLOB_BYTES, SEAL_OVERHEAD, uploadBlob } from '../../js/blobs/blob-transfer.js';
import { imageType } from '../../js/blobs/image-format.js';
import { newRoomKeyBytes, openRoomKey } from '../../js/wire/room-key.js';
import { hasBinary, startServer, temporaryDirectory } from '../sync/support/server.mjs';

test('a blob URL sits beside the sync endpoint, under any prefix', () => {
  const blob = 'ab'.repeat(32);
  assert.equal(blobURL('ws://127.0.0.1:8080/sync', 'r', blob), `http://127.0.0.1:8080/rooms/r/blobs/${blob}`);
  assert.equal(blobURL('wss://ink.example/board/sync', 'r-1', blob), `https://ink.example/board/rooms/r-1/blobs/${blob}`);
});

test('an image is known by its first bytes, not its name', () => {
  const bytes = (...values) => new Uint8Array(values);
  const ascii = (text) => new TextEncoder().encode(text);
  assert.equal(imageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)), 'image/png');
  assert.equal(imageType(bytes(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg');
  assert.equal(imageType(ascii('GIF89a……')), 'image/gif');
  assert.equal(imageType(ascii('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(imageType(ascii('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  assert.equal(imageType(bytes()), null);
});

test('uploads and downloads plain and sealed blobs against the real server', { skip: !hasBinary() && 'no inkwell binary' }, async (t) => {
  const directory = temporaryDirectory();
  const server = await startServer({ data: directory.path });
  t.after(async () => {
    await server.stop();
    directory.cleanup();
  });
  const syncUrl = `ws://127.0.0.1:${server.port}/sync`;
  const plain = new Uint8Array(200_000).map((_, index) => (index * 31) & 0xff);
  const open = { syncUrl, room: 'images', capability: '', key: null };

  const uploaded = await uploadBlob({ ...open, bytes: plain });
  assert.equal(uploaded.bytes, plain.length);
  const seen = [];
  const back = await downloadBlob({ ...open, blob: uploaded.blob, onProgress: (loaded, total) => seen.push([loaded, total]) });
  assert.deepEqual(back, plain);
  assert.equal(seen.at(-1)[0], plain.length, 'progress reaches the whole blob');

  const key = await openRoomKey(newRoomKeyBytes());
  const sealed = { ...open, key };
  const stored = await uploadBlob({ ...sealed, bytes: plain });
  assert.equal(stored.bytes, plain.length + SEAL_OVERHEAD);
  assert.notEqual(stored.blob, uploaded.blob, 'the server holds the sealed bytes, named by their hash');
  assert.deepEqual(await downloadBlob({ ...sealed, blob: stored.blob }), plain);
  const otherKey = await openRoomKey(newRoomKeyBytes());
  await assert.rejects(downloadBlob({ ...sealed, key: otherKey, blob: stored.blob }), { code: 'cannotOpen' });
  await assert.rejects(downloadBlob({ ...open, blob: 'cd'.repeat(32) }), { code: 'refused', status: 404 });

  // Bytes that are not the ones named are refused before anything else.
  const lying = (url, init) => globalThis.fetch(url.replace(uploaded.blob, stored.blob), init);
  await assert.rejects(downloadBlob({ ...open, blob: uploaded.blob, fetch: lying }), { code: 'hashMismatch' });
  // Too large is said before a byte is sent.
  let sent = false;
  const counting = async () => {
    sent = true;
    throw new Error('sent');
  };
  await assert.rejects(uploadBlob({ ...open, bytes: new Uint8Array(MAXIMUM_BLOB_BYTES + 1), fetch: counting }), { code: 'tooLarge' });
  assert.equal(sent, false);
  await assert.rejects(uploadBlob({ ...open, syncUrl: 'ws://127.0.0.1:1/sync', bytes: plain }), { code: 'unreachable' });
});
