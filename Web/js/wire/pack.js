// Packs to and from bytes: a `PackBody` of entries, deflated, inside a `Pack` envelope, as
// Sources/InkwellWire/Pack/PackCodec.swift does it.
//
// Decoding checks the declared body size against the limit before it inflates anything, stores at most
// that many bytes, and rejects bodies that turn out larger or smaller: a decompression bomb costs at most
// the limit. Where Swift's single zlib call would stop (see inflate.js), so does this, so both sides
// accept and refuse the same packs. A pack from a newer schema throws `futureSchema` before its body is
// opened, so the caller can store the bytes aside and decode them after an upgrade.

import { WireError } from './errors.js';
import { utf8Length } from './bytes.js';
import { changeHeader, encodeChange } from './change.js';
import { deflateRaw } from './deflate.js';
import { inflateRaw } from './inflate.js';
import { SCHEMA_VERSION, WireLimits } from './limits.js';
import { decodeMessage, encodeMessage } from './message.js';
import { packId } from './pack-id.js';
import * as schema from './schema.js';

/**
 * @typedef {import('./change.js').Change} Change
 * @typedef {{room: string, change: Uint8Array}} PackEntry
 * @typedef {{id: Uint8Array, schemaVersion: number, entries: PackEntry[]}} Pack
 */

/**
 * Encodes the changes of one room as a pack whose id is derived from them (`packId`). A change may be
 * given encoded (for instance one kept aside from a newer schema): it travels as it is, and the pack's
 * schema is the newest of its changes'.
 * @param {{room: string, changes: (Change | Uint8Array)[], id?: Uint8Array}} pack
 * @param {{compression?: 'deflate' | 'none'}} [options]
 * @returns {Promise<Uint8Array>}
 */
export async function encodePack({ room, changes, id }, { compression = 'deflate' } = {}) {
  if (typeof room !== 'string' || room.length === 0 || utf8Length(room) > WireLimits.maximumNameBytes) {
    throw WireError.invalidField('pack.entry.room');
  }
  if (!Array.isArray(changes)) throw WireError.invalidField('pack.changes');
  const ids = [];
  let schemaVersion = 0;
  const entries = changes.map((change) => {
    if (change instanceof Uint8Array) {
      const header = changeHeader(change);
      ids.push(header.id);
      schemaVersion = Math.max(schemaVersion, header.schemaVersion);
      return { room, change };
    }
    const bytes = encodeChange(change);
    ids.push(change.id);
    schemaVersion = Math.max(schemaVersion, SCHEMA_VERSION);
    return { room, change: bytes };
  });
  if (id !== undefined && !(id instanceof Uint8Array && id.length === 16)) throw WireError.invalidField('pack.id');
  const body = encodeMessage(schema.PackBody, { entries });
  if (body.length > WireLimits.maximumPackBodyBytes) throw WireError.tooLarge('pack body');
  const deflate = compression === 'deflate';
  if (!deflate && compression !== 'none') throw WireError.unsupportedCompression();
  return encodeMessage(schema.Pack, {
    id: id ?? packId(room, ids),
    schemaVersion: changes.length === 0 ? SCHEMA_VERSION : schemaVersion,
    compression: deflate ? schema.Compression.deflate : schema.Compression.none,
    body: deflate ? await deflateRaw(body) : body,
    bodySize: body.length,
    encryption: null,
  });
}

/**
 * Decodes a pack; its changes stay encoded (decode each with `decodeChange`).
 * @param {Uint8Array} bytes
 * @returns {Promise<Pack>}
 */
export async function decodePack(bytes) {
  return decodePackSync(bytes);
}

/**
 * `decodePack` without the promise: inflating is synchronous.
 * @param {Uint8Array} bytes
 * @param {{schema?: number}} [options] the newest schema understood (this code's, unless a test says otherwise)
 * @returns {Pack}
 */
export function decodePackSync(bytes, { schema: understood = SCHEMA_VERSION } = {}) {
  const wire = envelope(bytes);
  if (wire.id.length !== 16) throw WireError.invalidField('pack.id');
  if (wire.schemaVersion > understood) throw WireError.futureSchema(wire.schemaVersion);
  if (wire.encryption !== null) throw WireError.encrypted();
  const plain = inflate(wire);
  let body;
  try {
    body = decodeMessage(schema.PackBody, plain);
  } catch (error) {
    throw WireError.malformed('pack body', error);
  }
  if (body.entries.length > WireLimits.maximumEntriesPerPack) throw WireError.tooLarge('pack entries');
  const entries = body.entries.map((/** @type {PackEntry} */ entry) => {
    if (entry.room.length === 0 || utf8Length(entry.room) > WireLimits.maximumNameBytes) {
      throw WireError.invalidField('pack.entry.room');
    }
    return { room: entry.room, change: entry.change };
  });
  return { id: wire.id, schemaVersion: wire.schemaVersion, entries };
}

/**
 * The envelope alone: a pack's id and schema without opening its body.
 * @param {Uint8Array} bytes
 * @returns {{id: Uint8Array, schemaVersion: number}}
 */
export function packHeader(bytes) {
  const wire = envelope(bytes);
  if (wire.id.length !== 16) throw WireError.invalidField('pack.id');
  return { id: wire.id, schemaVersion: wire.schemaVersion };
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
 * The plain body, exactly `bodySize` bytes. Swift inflates with one zlib call into a buffer of
 * `bodySize` rounded up to a power of two (NIO's allocation): zlib stopping before the stream's end
 * (that buffer full, or the input cut short) is "malformed", any other size mismatch or trailing
 * input is a wrong `body_size`.
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
      let capacity = size === 0 ? 0 : 1;
      while (capacity < size) capacity *= 2;
      let result;
      try {
        result = inflateRaw(wire.body, capacity, size);
      } catch (error) {
        throw WireError.malformed('pack body compression', error);
      }
      if (wire.body.length === 0 || result.status !== 'end') {
        throw WireError.malformed('pack body compression');
      }
      if (result.produced !== size || result.consumed !== wire.body.length) {
        throw WireError.invalidField('pack.body_size');
      }
      return result.output;
    }
    default:
      throw WireError.unsupportedCompression();
  }
}
