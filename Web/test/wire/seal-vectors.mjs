// The cases of Conformance/seal-js.json: packs, presence and blobs sealed by the browser's code with a
// fixed key, fixed nonces and authors of fixed seeds, so the file is the same every run (deflate aside),
// and sealed packs that must be refused, with the error. Swift opens every one with its own code; the
// page opens Swift's Conformance/seal.json, in the same format (seal-vectors.test.mjs).
//
// Format (Swift's, `inkwell-seal-conformance/1`): `key`, `otherKey` (hex), `keyText` (base64url), `keyId`
// (hex); `capabilities` [{text, kind (admin, edit or view), hash (hex SHA-256 of the text)}]; `packs`
// [{name, room, seed (the author's, hex), nonce, compression, changes (hex, each an encoded change), bytes,
// id (SHA-256 of bytes)}]; `presences` [{name, room, device, nonce, json (the fields sealed: name, colour,
// cursorX, cursorY, hasCursor, board, ink, as wire.json writes a presence), sealed (Presence.sealed)}];
// `blobs` [{room, nonce, plain, sealed, sha256 (of sealed)}]; `refused` [{name, room, key ("key",
// "otherKey" or "none": what the reader holds), bytes, error (WireError's message, which is Swift's
// description)}]; `refusedPresences` [{name, room, device, key, sealed, error}]; `refusedBlobs` [{name,
// room, key, bytes, error}].

import { encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { capabilityHash, mintCapability } from '../../js/wire/capability.js';
import { sha256 } from '../../js/wire/digest.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { encodePoints } from '../../js/wire/points.js';
import { openRoomKey } from '../../js/wire/room-key.js';
import * as schema from '../../js/wire/schema.js';
import { openBlob, openPresence, sealBlob, sealPackBody, sealPresence } from '../../js/wire/seal.js';
import { encodeMessage } from '../../js/wire/message.js';
import { deflateRaw } from '../../js/wire/deflate.js';
import { testAuthor } from '../support/keys.mjs';
import { fromHex, handmadePack, toHex, toJSONShape } from './support.mjs';

export const KEY = fromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
export const OTHER_KEY = fromHex('f0e0d0c0b0a090807060504030201000f1e1d1c1b1a191817161514131211101');
export const ROOM = 'Kq3Zt0aLw9PxYbN2mR7sVc';
const SEEDS = ['0101010101010101010101010101010101010101010101010101010101010101', '0202020202020202020202020202020202020202020202020202020202020202'];

/** Nonce number `n`: 12 bytes, each `n`, so every vector's nonce differs and is fixed. @param {number} n */
const nonce = (n) => new Uint8Array(12).fill(n);

/** Changes of the author of `seed`, in order. */
function changesOf(replica, count, first = 1) {
  return Array.from({ length: count }, (_, index) => {
    const seq = first + index;
    const points = Array.from({ length: 12 }, (_, i) => [i * 4.5 + seq, 100 + ((i * i) % 17) / 8]);
    return encodeChange({
      id: { replica, seq },
      stamp: { wall: 1_800_000_000_000 + seq, counter: seq % 3 },
      board: 'main',
      operations: [{ op: 'addStroke', colour: 0xe03131ff, width: 3, points, pressures: null }],
    });
  });
}

/** Everything in seal-js.json, in a stable order. */
export async function sealVectors() {
  const key = await openRoomKey(KEY);
  const authors = await Promise.all(SEEDS.map((seed) => testAuthor(seed)));
  const [alice, bob] = authors;

  const capabilities = [];
  for (const [index, kind] of /** @type {const} */ (['admin', 'edit', 'view']).entries()) {
    const capability = mintCapability(kind, (bytes) => bytes.map((_, i) => (i * 37 + index * 101) & 0xff));
    capabilities.push({ text: capability.text, kind, hash: toHex(await capabilityHash(capability.text)) });
  }

  const packs = [];
  const packCases = [
    ['one change, not compressed', ROOM, 0, 1, 'none'],
    ['three changes, deflated', ROOM, 0, 3, 'deflate'],
    ['another author, another room', 'room-b', 1, 2, 'none'],
    ['no change', 'room-a', 1, 0, 'none'],
  ];
  for (const [index, [name, room, who, count, compression]] of packCases.entries()) {
    const author = authors[who];
    const changes = changesOf(author.replica, count);
    const bytes = await encodePack({ room, changes }, author.keys, { compression, roomKey: key, nonce: nonce(index + 1) });
    packs.push({
      name,
      room,
      seed: SEEDS[who],
      nonce: toHex(nonce(index + 1)),
      compression,
      changes: changes.map(toHex),
      bytes: toHex(bytes),
      id: toHex(await sha256(bytes)),
    });
  }

  const device = fromHex('a11ce000000000010000000000000000');
  const presence = (extra) => ({
    type: 'presence',
    room: ROOM,
    device,
    name: 'Alice',
    colour: 0x1971c2ff,
    cursorX: 0,
    cursorY: 0,
    hasCursor: false,
    board: '',
    ink: null,
    ...extra,
  });
  const presenceCases = [
    ['a name and colour', presence({})],
    ['a cursor', presence({ cursorX: 120.5, cursorY: -3.25, hasCursor: true })],
    ['ink in progress', presence({ name: 'Zoë ✏️', board: 'main', ink: { colour: 0x2f9e44ff, width: 4, points: encodePoints([[0, 0], [1.5, 2], [3, 4.125]]) } })],
  ];
  const presences = [];
  for (const [index, [name, frame]] of presenceCases.entries()) {
    const sealed = await sealPresence(frame, key, nonce(0x40 + index));
    presences.push({ name, room: ROOM, device: toHex(device), nonce: toHex(nonce(0x40 + index)), json: presenceJSON(frame), sealed: toHex(sealed.sealed) });
  }

  const blobs = [];
  for (const [index, plain] of [new Uint8Array(0), new TextEncoder().encode('a PNG would be here'), Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)].entries()) {
    const sealed = await sealBlob(plain, ROOM, key, nonce(0x60 + index));
    blobs.push({ room: ROOM, nonce: toHex(nonce(0x60 + index)), plain: toHex(plain), sealed: toHex(sealed), sha256: toHex(await sha256(sealed)) });
  }

  return {
    format: 'inkwell-seal-conformance/1',
    about:
      'Sealed by Web/js/wire/seal.js (node Web/test/wire/write-seal-vectors.mjs), in the format of seal.json: ' +
      'every pack, presence and blob opens with `key` to what is listed; every `refused` pack, read for its ' +
      'room by a holder of `key` ("key", "otherKey" or "none"), fails with `error` (a WireError code).',
    key: toHex(KEY),
    keyText: key.text,
    keyId: toHex(key.id),
    otherKey: toHex(OTHER_KEY),
    capabilities,
    packs,
    presences,
    blobs,
    refused: await refusedPacks(key, alice, bob),
    refusedPresences: await refusedPresences(key, device),
    refusedBlobs: await refusedBlobs(key),
  };
}

/** The fields a sealed presence holds, as wire.json writes a presence. */
export function presenceJSON(frame) {
  const { name, colour, cursorX, cursorY, hasCursor, board, ink } = toJSONShape(frame);
  return { name, colour, cursorX, cursorY, hasCursor, board, ink };
}

/** What `read` throws: a WireError's message (Swift's description of the same error). */
async function verdict(read) {
  try {
    await read();
  } catch (error) {
    if (error instanceof WireError) return error.message;
    throw error;
  }
  throw new Error('a refused case was read');
}

/** Sealed presence a holder must refuse. */
async function refusedPresences(key, device) {
  const frame = { type: 'presence', room: 'room-a', device, name: 'Alice', colour: 1, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null };
  const sealed = (await sealPresence(frame, key, nonce(0x90))).sealed;
  const flipped = sealed.map((byte, index) => (index === 20 ? byte ^ 0x10 : byte));
  const bob = fromHex('b0b00000000000020000000000000000');
  const inside = async (fields) => (await sealPresence({ ...frame, ...fields }, key, nonce(0x91))).sealed;
  const cases = [
    ['a flipped bit', 'room-a', device, 'key', flipped],
    ['another key', 'room-a', device, 'otherKey', sealed],
    ['replayed into another room', 'room-b', device, 'key', sealed],
    ['replayed as another device', 'room-a', bob, 'key', sealed],
    ['cut short of a tag', 'room-a', device, 'key', sealed.subarray(0, 27)],
    ['not sealed', 'room-a', device, 'key', new Uint8Array(0)],
    ['an infinite cursor inside', 'room-a', device, 'key', await inside({ cursorX: Infinity, hasCursor: true })],
  ];
  const other = await openRoomKey(OTHER_KEY);
  return Promise.all(
    cases.map(async ([name, room, from, holder, bytes]) => ({
      name,
      room,
      device: toHex(from),
      key: holder,
      sealed: toHex(bytes),
      error: await verdict(() => openPresence({ ...frame, room, device: from, name: '', colour: 0, sealed: bytes }, holder === 'key' ? key : other)),
    })),
  );
}

/** Sealed blobs a holder must refuse. */
async function refusedBlobs(key) {
  const sealed = await sealBlob(new TextEncoder().encode('an image'), ROOM, key, nonce(0xa0));
  const other = await openRoomKey(OTHER_KEY);
  const cases = [
    ['a flipped bit', ROOM, 'key', sealed.map((byte, index) => (index === 14 ? byte ^ 1 : byte))],
    ['another key', ROOM, 'otherKey', sealed],
    ['another room', 'room-b', 'key', sealed],
    ['empty', ROOM, 'key', new Uint8Array(0)],
  ];
  return Promise.all(
    cases.map(async ([name, room, holder, bytes]) => ({
      name,
      room,
      key: holder,
      bytes: toHex(bytes),
      error: await verdict(() => openBlob(bytes, room, holder === 'key' ? key : other)),
    })),
  );
}

/** Sealed packs a holder must refuse, each with why. */
async function refusedPacks(key, alice, bob) {
  const changes = changesOf(alice.replica, 2);
  const plainBody = encodeMessage(schema.PackBody, { entries: changes.map((change) => ({ room: '', change })) });
  const header = (room, author, bodySize = plainBody.length) => ({ room, author, schemaVersion: 1, compression: schema.Compression.none, bodySize });
  /** A pack of `fields` whose body is `sealed` (from sealPackBody), signed by `signer`. */
  const pack = (room, author, sealed, signer, extra = {}) =>
    handmadePack({ room, author, body: sealed.body, bodySize: plainBody.length, encryption: sealed.encryption, ...extra }, signer);
  const honest = await sealPackBody(plainBody, header(ROOM, alice.publicKey), key, nonce(0x80));
  const flipped = { ...honest, body: honest.body.map((byte, index) => (index === 3 ? byte ^ 0x01 : byte)) };
  const otherNonce = { ...honest, encryption: { ...honest.encryption, nonce: nonce(0x81) } };
  const otherScheme = { ...honest, encryption: { ...honest.encryption, scheme: 'chacha20-poly1305' } };
  const forgedBody = encodeMessage(schema.PackBody, { entries: changesOf(bob.replica, 1).map((change) => ({ room: '', change })) });
  const forged = await sealPackBody(forgedBody, header(ROOM, alice.publicKey, forgedBody.length), key, nonce(0x82));
  const deflated = await deflateRaw(plainBody);
  const sizeLies = await sealPackBody(deflated, { ...header(ROOM, alice.publicKey), compression: schema.Compression.deflate, bodySize: plainBody.length + 1 }, key, nonce(0x83));

  const cases = [
    ['sealed with another key', ROOM, 'otherKey', await pack(ROOM, alice.publicKey, honest, alice.keys), 'wrongKey'],
    ['a plain pack read with the key', ROOM, 'key', await handmadePack({ room: ROOM, author: alice.publicKey, changes }, alice.keys), 'unsealed'],
    ['read without a key', ROOM, 'none', await pack(ROOM, alice.publicKey, honest, alice.keys), 'encrypted'],
    ['a ciphertext byte flipped, signed again by its author', ROOM, 'key', await pack(ROOM, alice.publicKey, flipped, alice.keys), 'tampered'],
    ['another nonce, signed again', ROOM, 'key', await pack(ROOM, alice.publicKey, otherNonce, alice.keys), 'tampered'],
    ['an unknown scheme', ROOM, 'key', await pack(ROOM, alice.publicKey, otherScheme, alice.keys), 'unsupportedEncryption'],
    ['the sealed body moved into a pack of another room', 'room-b', 'key', await pack('room-b', alice.publicKey, honest, alice.keys), 'tampered'],
    ['the sealed body re-signed by another author', ROOM, 'key', await pack(ROOM, bob.publicKey, honest, bob.keys), 'tampered'],
    ['another body size in the header, signed again', ROOM, 'key', await pack(ROOM, alice.publicKey, honest, alice.keys, { bodySize: plainBody.length + 1 }), 'tampered'],
    ['replayed into another room', 'room-b', 'key', await pack(ROOM, alice.publicKey, honest, alice.keys), 'wrongRoom'],
    ['a change of another replica inside, sealed honestly', ROOM, 'key', await pack(ROOM, alice.publicKey, forged, alice.keys, { bodySize: forgedBody.length }), 'forgedAuthor'],
    [
      'a deflated body that inflates to another size than declared',
      ROOM,
      'key',
      await handmadePack({ room: ROOM, author: alice.publicKey, body: sizeLies.body, bodySize: plainBody.length + 1, compression: schema.Compression.deflate, encryption: sizeLies.encryption }, alice.keys),
      'invalidField',
    ],
  ];
  const other = await openRoomKey(OTHER_KEY);
  const holders = { key, otherKey: other, none: null };
  return Promise.all(
    cases.map(async ([name, room, holder, bytes, code]) => {
      let thrown = null;
      try {
        await decodePack(bytes, { room, roomKey: holders[holder] });
      } catch (caught) {
        thrown = caught;
      }
      // Each case shows the error it is named for; the file records its message, as Swift's does.
      if (!(thrown instanceof WireError) || thrown.code !== code) throw new Error(`${name}: expected ${code}, got ${thrown}`);
      const error = thrown.message;
      return { name, room, key: holder, bytes: toHex(bytes), error };
    }),
  );
}
