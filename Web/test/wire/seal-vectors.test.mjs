// Sealing across languages. Conformance/seal-js.json is what write-seal-vectors.mjs writes now (rerun it
// and commit when this fails); Conformance/seal.json, written by Swift, opens here to what it lists and
// its refused packs fail with its errors. Each file is also read by the same checks, so the reader is
// tested on the page's own vectors even before Swift's file exists.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import test from 'node:test';
import { capabilityHash, parseCapability } from '../../js/wire/capability.js';
import { sha256 } from '../../js/wire/digest.js';
import { WireError } from '../../js/wire/errors.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { openRoomKey, parseRoomKey } from '../../js/wire/room-key.js';
import { openBlob, openPresence, sealBlob, sealPresence } from '../../js/wire/seal.js';
import { decodeClientFrame, encodeClientFrame } from '../../js/wire/sync.js';
import { testAuthor } from '../support/keys.mjs';
import { sealVectors } from './seal-vectors.mjs';
import { conformance, fromHex, fromJSONShape, loadJSON, toHex, toJSONShape } from './support.mjs';

const LETTERS = { a: 'admin', e: 'edit', v: 'view' };

/**
 * Whether `error` is the one a vector names: its message (the files write WireError's description, the
 * same words in Swift and here), or its code (as the tests below name them).
 * @param {unknown} error @param {string} expected
 */
function isError(error, expected) {
  return error instanceof WireError && (error.message === expected || error.code === expected);
}

/**
 * Opens every case of a seal vector file and checks it against what the file lists.
 * @param {Record<string, any>} file
 * @param {import('node:test').TestContext} t
 */
async function checkFile(file, t) {
  const key = await openRoomKey(fromHex(file.key));
  const other = await openRoomKey(fromHex(file.otherKey));
  assert.equal(file.format, 'inkwell-seal-conformance/1');
  assert.equal(key.text, file.keyText, 'the key in text');
  assert.deepEqual(parseRoomKey(file.keyText), fromHex(file.key));
  assert.equal(toHex(key.id), file.keyId, 'the key id');

  for (const vector of file.capabilities) {
    const parsed = parseCapability(vector.text);
    assert.ok(parsed !== null, `${vector.text.slice(0, 1)}… parses`);
    assert.equal(parsed.kind, LETTERS[vector.kind] ?? vector.kind);
    assert.equal(toHex(await capabilityHash(vector.text)), vector.hash, `${vector.kind}: its hash`);
  }

  let resealed = 0;
  for (const vector of file.packs) {
    const bytes = fromHex(vector.bytes);
    const pack = await decodePack(bytes, { room: vector.room, roomKey: key });
    assert.ok(pack.sealed, `${vector.name}: sealed`);
    assert.deepEqual(pack.changes.map(toHex), vector.changes, `${vector.name}: opens to its changes`);
    assert.equal(toHex(pack.id), vector.id, `${vector.name}: id`);
    assert.equal(toHex(await sha256(bytes)), vector.id, `${vector.name}: the id is the SHA-256 of its bytes`);
    const author = await testAuthor(vector.seed);
    assert.equal(pack.replica, author.replica, `${vector.name}: the seed's author`);
    await assert.rejects(decodePack(bytes, { room: vector.room, roomKey: other }), (e) => isError(e, 'wrongKey'), `${vector.name}: another key`);
    await assert.rejects(decodePack(bytes, { room: vector.room }), (e) => isError(e, 'encrypted'), `${vector.name}: no key`);
    // AES-GCM and Ed25519 are deterministic: with the same nonce and seed, the same bytes (deflate aside).
    if (vector.compression === 'none') {
      const again = await encodePack({ room: vector.room, changes: vector.changes.map(fromHex) }, author.keys, {
        compression: 'none',
        roomKey: key,
        nonce: fromHex(vector.nonce),
      });
      assert.equal(toHex(again), vector.bytes, `${vector.name}: sealed again byte for byte`);
      resealed += 1;
    }
  }

  for (const vector of file.presences) {
    const sealed = fromHex(vector.sealed);
    const frame = { type: 'presence', room: vector.room, device: fromHex(vector.device), name: '', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null, sealed };
    // Through the codec, as it travels.
    const received = decodeClientFrame(encodeClientFrame(frame));
    const opened = toJSONShape(await openPresence(received, key));
    for (const [name, value] of Object.entries(vector.json)) assert.deepEqual(opened[name], value, `${vector.name}: ${name}`);
    await assert.rejects(openPresence(received, other), (e) => isError(e, 'tampered'), `${vector.name}: another key`);
    const again = await sealPresence(fromJSONShape({ type: 'presence', ...vector.json, room: vector.room, device: vector.device }), key, fromHex(vector.nonce));
    assert.ok(vector.json.type === undefined && vector.json.room === undefined, `${vector.name}: only the sealed fields are listed`);
    assert.equal(toHex(again.sealed), vector.sealed, `${vector.name}: sealed again byte for byte`);
  }

  for (const vector of file.blobs) {
    const sealed = fromHex(vector.sealed);
    assert.equal(toHex(await openBlob(sealed, vector.room, key)), vector.plain);
    assert.equal(toHex(await sha256(sealed)), vector.sha256);
    assert.equal(toHex(await sealBlob(fromHex(vector.plain), vector.room, key, fromHex(vector.nonce))), vector.sealed);
    await assert.rejects(openBlob(sealed, `${vector.room}x`, key), (e) => isError(e, 'tampered'), 'a blob of another room');
  }

  for (const vector of file.refusedPresences ?? []) {
    const holder = vector.key === 'otherKey' ? other : key;
    const frame = { type: 'presence', room: vector.room, device: fromHex(vector.device), name: '', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null, sealed: fromHex(vector.sealed) };
    await assert.rejects(openPresence(frame, holder), (error) => {
      assert.ok(isError(error, vector.error), `presence ${vector.name}: expected ${vector.error}, got ${error?.message}`);
      return true;
    });
  }
  for (const vector of file.refusedBlobs ?? []) {
    const holder = vector.key === 'otherKey' ? other : key;
    await assert.rejects(openBlob(fromHex(vector.bytes), vector.room, holder), (error) => {
      assert.ok(isError(error, vector.error), `blob ${vector.name}: expected ${vector.error}, got ${error?.message}`);
      return true;
    });
  }
  for (const vector of file.refused) {
    const holder = { key, otherKey: other, none: null }[vector.key];
    assert.notEqual(holder, undefined, `${vector.name}: holds ${vector.key}`);
    await assert.rejects(decodePack(fromHex(vector.bytes), { room: vector.room, roomKey: holder }), (error) => {
      assert.ok(isError(error, vector.error), `${vector.name}: expected ${vector.error}, got ${error?.code ?? error}: ${error?.message}`);
      return true;
    });
  }
  t.diagnostic(
    `${file.packs.length} packs (${resealed} sealed again byte for byte), ${file.presences.length} presences, ` +
      `${file.blobs.length} blobs opened; ${file.refused.length} packs, ${file.refusedPresences?.length ?? 0} presences and ` +
      `${file.refusedBlobs?.length ?? 0} blobs refused`,
  );
}

test('seal-js.json is current', async () => {
  const committed = loadJSON('seal-js.json');
  const now = JSON.parse(JSON.stringify(await sealVectors()));
  // Deflate output depends on the zlib build: a deflated pack is compared by what it opens to.
  const stable = (file) => ({ ...file, packs: file.packs.map((pack) => (pack.compression === 'none' ? pack : { ...pack, bytes: null, id: null })) });
  assert.deepEqual(stable(now), stable(committed), 'run node Web/test/wire/write-seal-vectors.mjs');
});

test('the page opens what it sealed (seal-js.json)', async (t) => {
  await checkFile(loadJSON('seal-js.json'), t);
});

const swift = existsSync(conformance('seal.json'));

test('the page opens what Swift sealed, and refuses what Swift refuses (seal.json)', async (t) => {
  if (!swift) {
    t.skip('Conformance/seal.json is not there yet (Swift writes it): nothing of Swift checked');
    return;
  }
  await checkFile(loadJSON('seal.json'), t);
});
