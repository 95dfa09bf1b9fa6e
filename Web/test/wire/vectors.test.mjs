// Conformance/wire.json, made by Swift: every vector decodes to its JSON and encodes back to its bytes;
// every pack verifies, and the seed it was signed with signs its bytes to the same signature here.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { changeHeader, decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodeMessage } from '../../js/wire/message.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { signPack } from '../../js/wire/pack-signature.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import * as schema from '../../js/wire/schema.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { testAuthor } from '../support/keys.mjs';
import { fromHex, fromJSONShape, loadJSON, packJSON, recordedPackJSON, toHex, toJSONShape } from './support.mjs';

const wire = loadJSON('wire.json');

/** @param {Uint8Array} bytes */
const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Whether a pack's envelope says its body is not compressed. @param {Uint8Array} bytes */
const isUncompressed = (bytes) => decodeMessage(schema.Pack, bytes).compression === schema.Compression.none;

test('changes made by Swift decode to their JSON and encode back to the same bytes', () => {
  assert.ok(wire.changes.length >= 60);
  for (const vector of wire.changes) {
    const decoded = decodeChange(fromHex(vector.bytes));
    assert.deepEqual(toJSONShape(decoded), vector.json, vector.name);
    assert.equal(toHex(encodeChange(decoded)), vector.reencoded ?? vector.bytes, vector.name);
    assert.equal(toHex(encodeChange(fromJSONShape(vector.json))), vector.reencoded ?? vector.bytes, vector.name);
  }
});

test('a change of a newer schema is reported with its version, and its header still reads', () => {
  for (const vector of wire.futureChanges) {
    const bytes = fromHex(vector.bytes);
    assert.throws(
      () => decodeChange(bytes),
      (error) => error instanceof WireError && error.code === 'futureSchema' && error.schemaVersion === vector.schemaVersion,
    );
    assert.deepEqual(changeHeader(bytes), { ...vector.header, schemaVersion: vector.schemaVersion });
  }
});

test('ink points made by Swift decode and encode back', () => {
  for (const vector of wire.points) {
    const bytes = fromHex(vector.bytes);
    assert.deepEqual(decodePoints(bytes), vector.json, vector.name);
    assert.equal(toHex(encodePoints(vector.json.points, vector.json.pressures)), vector.bytes, vector.name);
  }
});

/**
 * Checks a signed pack Swift made: it verifies for its room, decodes to what Swift recorded, its id is
 * the SHA-256 of its bytes, the seed's key is its author, that key signs its unsigned bytes to its very
 * signature here, and, without compression, this code encodes its changes to its very bytes.
 * @param {Record<string, any>} vector a `packs` vector (or a `signedPacks` one: `publicKey` for `author`,
 *   `pack` for `bytes` are read too)
 * @returns {Promise<boolean>} whether it was re-encoded byte for byte
 */
async function checkSignedPack(vector) {
  const name = vector.name ?? vector.room;
  const bytes = fromHex(vector.bytes ?? vector.pack);
  const expected = { ...vector, author: vector.author ?? vector.publicKey };
  const pack = await decodePack(bytes, { room: vector.room, schema: vector.understanding ?? 1 });
  assert.ok('changes' in expected || 'id' in expected, `${name}: a vector records what the pack holds`);
  assert.deepEqual(recordedPackJSON(packJSON(pack), expected), recordedPackJSON(expected, expected), name);
  assert.equal(toHex(pack.id), sha256Hex(bytes), `${name}: the id is the SHA-256 of the bytes`);
  const author = await testAuthor(vector.seed);
  assert.deepEqual([toHex(author.publicKey), author.replica], [toHex(pack.author), pack.replica], `${name}: the seed's key signed it`);
  // Ed25519 is deterministic: the same seed signs Swift's unsigned bytes to Swift's signature.
  assert.equal(toHex(await signPack(bytes.subarray(0, bytes.length - 66), author.keys)), toHex(bytes), `${name}: signed again`);
  if (vector.understanding !== undefined) return false;
  const again = await encodePack({ room: pack.room, changes: pack.changes }, author.keys, { compression: 'none' });
  assert.deepEqual((await decodePack(again)).changes, pack.changes, `${name}: what JS writes decodes the same`);
  // Deflate output differs between zlib builds; without compression the bytes are Swift's exactly.
  if (!isUncompressed(bytes)) return false;
  assert.equal(toHex(again), toHex(bytes), `${name}: re-encoded byte for byte`);
  return true;
}

test('packs made by Swift verify, decode, and are signed (and without compression encoded) the same here', async (t) => {
  const vectors = [...wire.packs, ...(wire.signedPacks ?? [])];
  assert.ok(wire.packs.length >= 6);
  let reencoded = 0;
  for (const vector of vectors) if (await checkSignedPack(vector)) reencoded++;
  assert.ok(reencoded >= 2, 'plain packs re-encode byte for byte');
  t.diagnostic(`${vectors.length} packs verified and signed again; ${reencoded} (those without compression) re-encoded byte for byte`);
});

test('every sync frame made by Swift decodes to its JSON and encodes back', () => {
  const directions = new Set(wire.frames.map((vector) => vector.direction));
  assert.deepEqual([...directions].sort(), ['client', 'server']);
  for (const vector of wire.frames) {
    const bytes = fromHex(vector.bytes);
    const [decode, encode] =
      vector.direction === 'client' ? [decodeClientFrame, encodeClientFrame] : [decodeServerFrame, encodeServerFrame];
    const frame = decode(bytes);
    assert.deepEqual(toJSONShape(frame), vector.json, vector.name);
    assert.equal(toHex(encode(frame)), vector.bytes, vector.name);
    assert.equal(toHex(encode(fromJSONShape(vector.json))), vector.bytes, vector.name);
  }
});
