// Capabilities, room keys and sealing (the formats of docs/ACCESS-FORMATS.md): base64url against node's,
// hashes and key ids against node:crypto, and every sealed message opened by node:crypto's AES-256-GCM
// with associated data built here from the spec, so the page's WebCrypto code is checked against an
// implementation it shares nothing with.

import assert from 'node:assert/strict';
import { createDecipheriv, createHash } from 'node:crypto';
import test from 'node:test';
import { base64urlDecode, base64urlEncode } from '../../js/wire/base64url.js';
import { CAPABILITY_LENGTH, capabilityHash, mintCapability, parseCapability } from '../../js/wire/capability.js';
import { decodeMessage } from '../../js/wire/message.js';
import { WireError } from '../../js/wire/errors.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { newRoomKeyBytes, openRoomKey, parseRoomKey, roomKeyText } from '../../js/wire/room-key.js';
import * as schema from '../../js/wire/schema.js';
import { openBlob, openPresence, sealBlob, sealPresence } from '../../js/wire/seal.js';
import { encodePoints } from '../../js/wire/points.js';
import { testAuthor } from '../support/keys.mjs';
import { changeOf, fromHex, random, toHex } from './support.mjs';

const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((part) => Buffer.from(part)))).digest();
const u32 = (value) => Buffer.from([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
const text = (value) => Buffer.from(value, 'utf8');

/** node:crypto's AES-256-GCM: opens ciphertext ‖ tag, or throws. */
function nodeOpen(key, nonce, data, sealed) {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  decipher.setAAD(Buffer.from(data));
  decipher.setAuthTag(Buffer.from(sealed.subarray(sealed.length - 16)));
  return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(sealed.subarray(0, sealed.length - 16))), decipher.final()]));
}

const KEY = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const key = await openRoomKey(KEY);
const other = await openRoomKey(new Uint8Array(32).fill(9));
const alice = await testAuthor(0xa1);

test('base64url is RFC 4648 §5 without padding, and only the canonical text decodes', () => {
  const rng = random(0x5ea1);
  for (let length = 0; length < 70; length++) {
    const bytes = rng.bytes(length);
    const encoded = base64urlEncode(bytes);
    assert.equal(encoded, Buffer.from(bytes).toString('base64url'), `${length} bytes`);
    assert.deepEqual(base64urlDecode(encoded), bytes);
  }
  for (const bad of ['A', 'AB=', 'A+', 'A/', 'AB C', 'AF', 'AAB', 'ABCDE']) assert.equal(base64urlDecode(bad), null, bad);
  assert.deepEqual(base64urlDecode('AA'), new Uint8Array([0]));
  assert.equal(base64urlDecode(42), null);
});

test('capabilities are a kind letter and 32 random bytes; only those parse; the hash is SHA-256 of the text', async () => {
  for (const kind of ['admin', 'edit', 'view']) {
    const capability = mintCapability(kind);
    assert.equal(capability.text.length, CAPABILITY_LENGTH);
    assert.equal(capability.text[0], kind[0] === 'a' ? 'a' : kind[0]);
    assert.deepEqual(parseCapability(capability.text), capability);
    assert.equal(toHex(await capabilityHash(capability.text)), sha256(text(capability.text)).toString('hex'));
    assert.notEqual(mintCapability(kind).text, capability.text, 'fresh bytes each time');
  }
  const body = base64urlEncode(new Uint8Array(32).fill(7));
  assert.equal(parseCapability(`x${body}`), null, 'an unknown kind');
  assert.equal(parseCapability(`e${body}A`), null, 'too long');
  assert.equal(parseCapability(`e${body.slice(0, -1)}`), null, 'too short');
  assert.equal(parseCapability(`e${body.slice(0, -1)}B`), null, 'bits past the last byte');
  assert.equal(parseCapability(null), null);
  assert.throws(() => mintCapability('owner'), TypeError);
});

test('a room key is 32 bytes in base64url, and its id the first 8 bytes of SHA-256 of a prefix and the key', async () => {
  const bytes = newRoomKeyBytes();
  assert.equal(bytes.length, 32);
  const opened = await openRoomKey(roomKeyText(bytes));
  assert.equal(opened.text.length, 43);
  assert.deepEqual(parseRoomKey(opened.text), bytes);
  assert.equal(toHex(opened.id), sha256(text('inkwell-room-key-id/1'), bytes).subarray(0, 8).toString('hex'));
  assert.equal(parseRoomKey('AAAA'), null);
  await assert.rejects(openRoomKey('not a key'), WireError);
});

test('a sealed pack: its body opens with node:crypto under the spec’s associated data, and the page opens it', async () => {
  for (const compression of ['none', 'deflate']) {
    const changes = [changeOf(alice.replica, 1), changeOf(alice.replica, 2)];
    const room = 'Kq3Zt0aLw9PxYbN2mR7sVc';
    const bytes = await encodePack({ room, changes }, alice.keys, { compression, roomKey: key });
    const wire = decodeMessage(schema.Pack, bytes);
    assert.equal(wire.encryption.scheme, 'aes-256-gcm');
    assert.deepEqual(wire.encryption.keyId, key.id);
    assert.equal(wire.encryption.nonce.length, 12);
    const data = Buffer.concat([
      text('inkwell-pack-seal/1'),
      Buffer.from([0]),
      u32(room.length),
      text(room),
      Buffer.from(alice.publicKey),
      u32(1),
      u32(compression === 'none' ? 0 : 1),
      u32(wire.bodySize),
    ]);
    const carried = nodeOpen(KEY, wire.encryption.nonce, data, wire.body);
    if (compression === 'none') {
      assert.deepEqual(decodeMessage(schema.PackBody, carried).entries.map((entry) => entry.change), changes);
    }
    const pack = await decodePack(bytes, { room, roomKey: key });
    assert.ok(pack.sealed);
    assert.deepEqual(pack.changes, changes, `${compression}: opens to its changes`);
    const again = await encodePack({ room, changes }, alice.keys, { compression, roomKey: key });
    assert.notDeepEqual(decodeMessage(schema.Pack, again).encryption.nonce, wire.encryption.nonce, 'a fresh nonce each time');
    const plainPack = await encodePack({ room, changes }, alice.keys, { compression });
    assert.equal((await decodePack(plainPack, { room })).sealed, false);
    await assert.rejects(decodePack(plainPack, { room, roomKey: key }), (error) => error.code === 'unsealed', 'a plain pack in an encrypted room');
  }
});

test('sealed presence: only room and device stay plain; it opens with node:crypto and the page', async () => {
  const device = fromHex('a11ce000000000010000000000000000');
  const frame = {
    type: 'presence',
    room: 'room-a',
    device,
    name: 'Alice',
    colour: 0xff0000ff,
    cursorX: 10,
    cursorY: -2.5,
    hasCursor: true,
    board: 'main',
    ink: { colour: 0x00ff00ff, width: 2, points: encodePoints([[1, 1], [2, 3]]) },
  };
  const sealed = await sealPresence(frame, key);
  assert.deepEqual({ ...sealed, sealed: null }, { ...frame, name: '', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null, sealed: null });
  const data = Buffer.concat([text('inkwell-presence-seal/1'), Buffer.from([0]), u32(6), text('room-a'), Buffer.from(device)]);
  const plain = nodeOpen(KEY, sealed.sealed.subarray(0, 12), data, sealed.sealed.subarray(12));
  assert.equal(decodeMessage(schema.SealedPresence, plain).name, 'Alice');
  assert.deepEqual(await openPresence(sealed, key), frame);
  await assert.rejects(openPresence(sealed, other), (error) => error.code === 'tampered', 'another key');
  await assert.rejects(openPresence({ ...sealed, room: 'room-b' }, key), (error) => error.code === 'tampered', 'relayed into another room');
  await assert.rejects(openPresence({ ...sealed, sealed: sealed.sealed.subarray(0, 20) }, key), (error) => error.code === 'tampered', 'cut short');
});

test('a sealed blob is nonce ‖ ciphertext ‖ tag, bound to its room', async () => {
  const plain = new TextEncoder().encode('an image');
  const sealed = await sealBlob(plain, 'room-a', key);
  const data = Buffer.concat([text('inkwell-blob-seal/1'), Buffer.from([0]), u32(6), text('room-a')]);
  assert.deepEqual(nodeOpen(KEY, sealed.subarray(0, 12), data, sealed.subarray(12)), plain);
  assert.deepEqual(await openBlob(sealed, 'room-a', key), plain);
  await assert.rejects(openBlob(sealed, 'room-b', key), (error) => error.code === 'tampered');
});
