// Packs to and from bytes: a `PackBody` of entries, deflated, inside a `Pack` envelope signed by its
// author, as Sources/InkwellWire/Pack/PackCodec.swift does it.
//
// A pack holds changes of one room and one replica: its author's, whose Ed25519 key signs it (see
// pack-signature.js and author-key.js). Decoding checks, in this order: the envelope, a 32-byte author, a
// signature that ends the bytes, a valid room (and the one the caller expected: `wrongRoom`), the
// signature itself (`badSignature`); then that it is no part of a room snapshot (`snapshotPart`:
// snapshot-part.js reads those, through the same checks), a newer schema (`futureSchema`, so the caller can
// keep it aside: at least it is the signer's), encryption and the body; then every entry's room and that every
// change is the author's (`forgedAuthor`). A pack sealed with a room key (seal.js) is opened with the key
// the caller holds (`encrypted` without one, `wrongKey`, `tampered`), then checked exactly as a plain one;
// a plain pack read with a key (an encrypted room's reader) is `unsealed`.
// Verifying is WebCrypto's, so decoding is async; only `unverifiedPackHeader` is synchronous, and it
// vouches for nothing.
//
// The declared body size is checked against the limit before anything is inflated, at most that many
// bytes are stored, and bodies that turn out larger or smaller are refused: a decompression bomb costs at
// most the limit. Where Swift's single zlib call would stop (see inflate.js), so does this, so both sides
// accept and refuse the same packs.

import { WireError } from './errors.js';
import { replicaOfKey, packSigner } from './author-key.js';
import { changeHeader, changeOrigin, encodeChange } from './change.js';
import { deflateRaw } from './deflate.js';
import { inflateRaw } from './inflate.js';
import { SCHEMA_VERSION, WireLimits, isValidRoom } from './limits.js';
import { decodeMessage, encodeMessage } from './message.js';
import { packId } from './pack-id.js';
import { checkSignaturePlacement, signPack, verifyPackSignature } from './pack-signature.js';
import * as schema from './schema.js';
import { openPackBody, sealPackBody } from './seal.js';

/**
 * @typedef {import('./change.js').Change} Change
 * @typedef {import('./author-key.js').SigningKey} SigningKey
 * @typedef {import('./room-key.js').RoomKey} RoomKey
 * @typedef {{
 *   id: Uint8Array, room: string, author: Uint8Array, replica: string, schemaVersion: number,
 *   changes: Uint8Array[]
 * }} Pack a pack as decoded and verified: `id` is the SHA-256 of its bytes, `author` the signer's public
 *   key and `replica` the replica it owns (every change's), `changes` still encoded
 */

const EMPTY = new Uint8Array(0);

/**
 * Encodes the changes of one room and one replica as a pack signed by `key`, the key that owns that
 * replica. A change may be given encoded (for instance one kept aside from a newer schema): it travels as
 * it is, and the pack's schema is the newest of its changes'. Entries leave their room out: the envelope
 * names it once. Its id is `packId` of the bytes; the same changes and key give the same bytes (and,
 * sealed, the same nonce). With a room key the body is sealed, after compression, and the signature made
 * over the sealed envelope.
 * @param {{room: string, changes: (Change | Uint8Array)[]}} pack
 * @param {SigningKey} key a WebCrypto Ed25519 key pair, or a signer `{publicKey, sign}`
 * @param {{compression?: 'deflate' | 'none', roomKey?: RoomKey | null, nonce?: Uint8Array}} [options]
 *   `roomKey`: seal with it; `nonce`: fixed by tests only, fresh and random otherwise
 * @returns {Promise<Uint8Array>}
 * @throws {WireError} `invalidField('pack.room')`, `forgedAuthor` for a change of another replica than
 *   the key's, and whatever encoding a change throws
 */
export async function encodePack({ room, changes }, key, { compression = 'deflate', roomKey = null, nonce } = {}) {
  if (!isValidRoom(room)) throw WireError.invalidField('pack.room');
  if (!Array.isArray(changes)) throw WireError.invalidField('pack.changes');
  const signer = await packSigner(key);
  const replica = await replicaOfKey(signer.publicKey);
  let schemaVersion = 0;
  const entries = changes.map((change) => {
    let bytes;
    let author;
    if (change instanceof Uint8Array) {
      const header = changeHeader(change);
      [bytes, author] = [change, header.id.replica];
      schemaVersion = Math.max(schemaVersion, header.schemaVersion);
    } else {
      [bytes, author] = [encodeChange(change), change.id.replica.toLowerCase()];
      schemaVersion = Math.max(schemaVersion, SCHEMA_VERSION);
    }
    // Signed, it would only be refused by every receiver.
    if (author !== replica) throw WireError.forgedAuthor();
    return { room: '', change: bytes };
  });
  const version = changes.length === 0 ? SCHEMA_VERSION : schemaVersion;
  return signedEnvelope({ room, entries, schemaVersion: version, snapshot: null }, signer, { compression, roomKey, nonce });
}

/**
 * The envelope of a pack (or of a snapshot part, with its `snapshot` cover): the body of `entries`,
 * compressed, sealed with `roomKey` if given, then signed by `signer` over every field before the signature.
 * @param {{room: string, entries: {room: string, change: Uint8Array}[], schemaVersion: number,
 *   snapshot: Record<string, any> | null}} contents
 * @param {import('./author-key.js').PackSigner} signer
 * @param {{compression?: 'deflate' | 'none', roomKey?: RoomKey | null, nonce?: Uint8Array}} options
 * @returns {Promise<Uint8Array>}
 * @throws {WireError} `tooLarge('pack body')`, `unsupportedCompression`
 */
export async function signedEnvelope({ room, entries, schemaVersion, snapshot }, signer, { compression = 'deflate', roomKey = null, nonce } = {}) {
  const body = encodeMessage(schema.PackBody, { entries });
  if (body.length > WireLimits.maximumPackBodyBytes) throw WireError.tooLarge('pack body');
  const deflate = compression === 'deflate';
  if (!deflate && compression !== 'none') throw WireError.unsupportedCompression();
  const header = {
    room,
    author: signer.publicKey,
    schemaVersion,
    compression: deflate ? schema.Compression.deflate : schema.Compression.none,
    bodySize: body.length,
  };
  const carried = deflate ? await deflateRaw(body) : body;
  const sealed = roomKey === null ? { body: carried, encryption: null } : await sealPackBody(carried, header, roomKey, nonce);
  const fields = { ...header, body: sealed.body, encryption: sealed.encryption, signature: EMPTY, snapshot };
  return signPack(encodeMessage(schema.Pack, fields), signer);
}

/**
 * Decodes and verifies a pack; its changes stay encoded (decode each with `decodeChange`).
 * @param {Uint8Array} bytes
 * @param {{room?: string | null, schema?: number, roomKey?: RoomKey | null}} [options] `room`: the room the
 *   pack arrived for (a Push's, a Packs frame's), refused with `wrongRoom` when the pack was signed for
 *   another; `schema`: the newest schema understood (this code's, unless a test says otherwise);
 *   `roomKey`: the encrypted room's key, which opens sealed packs (and refuses plain ones)
 * @returns {Promise<Pack & {sealed: boolean}>} `sealed`: whether it came sealed
 * @throws {WireError} `futureSchema`, `encrypted`, `wrongKey`, `tampered`, `unsealed` only once the
 *   signature holds; `snapshotPart` for a part of a room snapshot (snapshot-part.js reads those)
 */
export async function decodePack(bytes, { room = null, schema: understood = SCHEMA_VERSION, roomKey = null } = {}) {
  const wire = await verifiedEnvelope(bytes, room);
  if (wire.snapshot !== null) throw WireError.snapshotPart();
  if (wire.schemaVersion > understood) throw WireError.futureSchema(wire.schemaVersion);
  const entries = await openedEntries(wire, roomKey, 'pack body');
  if (entries.length > WireLimits.maximumEntriesPerPack) throw WireError.tooLarge('pack entries');
  const replica = await replicaOfKey(wire.author);
  const changes = entries.map((entry) => {
    // Empty means the envelope's room; a change of a newer schema is the caller's to keep aside, but its
    // replica is checked all the same.
    if (entry.room !== '' && entry.room !== wire.room) throw WireError.invalidField('pack.entry.room');
    if (changeOrigin(entry.change).replica !== replica) throw WireError.forgedAuthor();
    return entry.change;
  });
  return { id: await packId(bytes), room: wire.room, author: wire.author, replica, schemaVersion: wire.schemaVersion, changes, sealed: wire.encryption !== null };
}

/**
 * The envelope of a signed pack or snapshot part, checked up to its signature: a 32-byte author, a
 * signature that ends the bytes, a valid room (the one expected, if given), a signature that verifies.
 * @param {Uint8Array} bytes
 * @param {string | null} room
 * @returns {Promise<Record<string, any>>} the envelope's fields
 * @throws {WireError}
 */
export async function verifiedEnvelope(bytes, room) {
  const wire = envelope(bytes);
  if (wire.author.length !== 32) throw WireError.invalidField('pack.author');
  checkSignaturePlacement(bytes, wire.signature);
  if (!isValidRoom(wire.room)) throw WireError.invalidField('pack.room');
  if (room !== null && room !== wire.room) throw WireError.wrongRoom();
  if (!(await verifyPackSignature(bytes, wire.author))) throw WireError.badSignature();
  return wire;
}

/**
 * The entries of a verified envelope's body: opened with `roomKey` (a sealed body needs it, a plain one
 * must have none), inflated to its declared size, decoded.
 * @param {Record<string, any>} wire
 * @param {RoomKey | null} roomKey
 * @param {string} what the body's name in a `malformed` error
 * @returns {Promise<{room: string, change: Uint8Array}[]>}
 * @throws {WireError} `unsealed`, `encrypted`, `wrongKey`, `tampered`, and what inflating and decoding throw
 */
export async function openedEntries(wire, roomKey, what) {
  const sealed = wire.encryption !== null;
  if (!sealed && roomKey !== null) throw WireError.unsealed();
  const carried = sealed ? await openPackBody(wire, wire, roomKey) : wire.body;
  const plain = inflate({ ...wire, body: carried });
  try {
    return decodeMessage(schema.PackBody, plain).entries;
  } catch (error) {
    throw WireError.malformed(what, error);
  }
}

/**
 * The envelope alone, UNVERIFIED: the room, author and schema a pack claims, without checking its
 * signature or opening its body. Enough to file bytes kept aside; never a reason to trust them.
 * @param {Uint8Array} bytes
 * @returns {{room: string, author: Uint8Array, schemaVersion: number}}
 */
export function unverifiedPackHeader(bytes) {
  const wire = envelope(bytes);
  return { room: wire.room, author: wire.author, schemaVersion: wire.schemaVersion };
}

/** @param {Uint8Array} bytes */
function envelope(bytes) {
  if (!(bytes instanceof Uint8Array)) throw WireError.invalidField('pack');
  if (bytes.length > WireLimits.maximumPackBodyBytes) throw WireError.tooLarge('pack');
  try {
    return decodeMessage(schema.Pack, bytes);
  } catch (error) {
    throw WireError.malformed('pack', error);
  }
}

/**
 * The plain body, exactly `bodySize` bytes. Swift inflates with libdeflate into a buffer of exactly
 * `bodySize`: a stream that is not valid deflate or ends before its last block (input cut short, or
 * none) is "malformed"; one that inflates to more or fewer bytes than declared, or is followed by more
 * input, is a wrong `body_size`.
 * @param {Record<string, any>} wire
 */
function inflate(wire) {
  const size = wire.bodySize;
  if (size > WireLimits.maximumPackBodyBytes) throw WireError.tooLarge('pack body');
  switch (wire.compression) {
    case schema.Compression.none:
      if (wire.body.length !== size) throw WireError.invalidField('pack.body_size');
      return wire.body;
    case schema.Compression.deflate: {
      if (wire.body.length === 0) throw WireError.malformed('pack body compression');
      let result;
      try {
        // One byte of room past the declared size: a stream that fills it inflates to more.
        result = inflateRaw(wire.body, size + 1, size);
      } catch (error) {
        throw WireError.malformed('pack body compression', error);
      }
      if (result.status === 'output' || result.produced > size) throw WireError.invalidField('pack.body_size');
      if (result.status !== 'end') throw WireError.malformed('pack body compression');
      if (result.produced !== size || result.consumed !== wire.body.length) {
        throw WireError.invalidField('pack.body_size');
      }
      return result.output;
    }
    default:
      throw WireError.unsupportedCompression();
  }
}
