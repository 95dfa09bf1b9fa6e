// Board changes to and from their wire encoding, as Sources/InkwellWire/Codec/ChangeCodec.swift does it.
//
// A change's structure is checked strictly: bytes that are not a change, a replica id that is not 16
// bytes, a seq of 0, a missing or over-long board name, or a newer schema throw `WireError` and nothing
// is decoded. A change of a newer schema throws `WireError` with code `futureSchema` (and
// `schemaVersion`): keep its bytes aside (`changeHeader` names it) and decode them after an upgrade.

import { WireError } from './errors.js';
import { fromHex, toHex, utf8Length } from './bytes.js';
import { SCHEMA_VERSION, WireLimits } from './limits.js';
import { decodeMessage, encodeMessage } from './message.js';
import { decodeOperation, encodeOperation } from './operation.js';
import * as schema from './schema.js';

/**
 * @typedef {import('./operation.js').Operation} Operation
 * @typedef {import('./operation.js').ChangeId} ChangeId
 * @typedef {{wall: number, counter: number}} Stamp
 * @typedef {{id: ChangeId, stamp: Stamp, board: string, operations: Operation[]}} Change
 * @typedef {{id: ChangeId, stamp: Stamp, board: string, schemaVersion: number}} ChangeHeader
 */

const MAX_WALL = 2 ** 48 - 1;

/**
 * Encodes a change (the JSON shape of Conformance/board.json) in the current schema.
 * @param {Change} change
 * @returns {Uint8Array}
 */
export function encodeChange(change) {
  if (change === null || typeof change !== 'object') throw WireError.invalidField('change');
  const id = change.id ?? /** @type {any} */ ({});
  if (typeof id.replica !== 'string' || id.replica.length !== 32) throw WireError.invalidField('change.replica');
  const replica = fromHex(id.replica, 'change.replica');
  if (!Number.isSafeInteger(id.seq) || id.seq < 1) throw WireError.invalidField('change.seq');
  if (!Array.isArray(change.operations)) throw WireError.invalidField('change.operations');
  return encodeMessage(schema.Change, {
    replica,
    seq: id.seq,
    stamp: stampBits(change.stamp),
    board: change.board,
    schemaVersion: SCHEMA_VERSION,
    operations: change.operations.map((operation) => encodeOperation(operation, replica)),
  });
}

/**
 * Decodes a change. Throws `WireError`; code `futureSchema` means: keep the bytes aside.
 * @param {Uint8Array} bytes
 * @returns {Change}
 */
export function decodeChange(bytes) {
  const wire = readChange(bytes);
  const { id, stamp } = checkHeader(wire);
  if (wire.type !== '' && wire.type !== 'board') throw WireError.otherType(wire.type);
  if (wire.schemaVersion > SCHEMA_VERSION) throw WireError.futureSchema(wire.schemaVersion);
  if (wire.operations.length > WireLimits.maximumOperationsPerChange) throw WireError.tooLarge('operations');
  return {
    id,
    stamp,
    board: wire.board,
    operations: wire.operations.map((/** @type {Uint8Array} */ operation) => decodeOperation(operation, wire.replica)),
  };
}

/**
 * A change's identity, stamp, board and schema without its operations, whatever its schema: enough to
 * store a change from a newer schema aside, or to name it in a pack.
 * @param {Uint8Array} bytes
 * @returns {ChangeHeader}
 */
export function changeHeader(bytes) {
  const wire = readChange(bytes);
  return { ...checkHeader(wire), board: wire.board, schemaVersion: wire.schemaVersion };
}

/**
 * Who made a change and when, read as Swift's `ChangeCodec.header(of:)` reads it: enough to check a
 * pack's author and a stamp's lead without the operations, whatever schema wrote them. Unlike
 * `changeHeader`, the seq and board are not checked (a pack's decoder leaves that to the change's).
 * @param {Uint8Array} bytes
 * @returns {{replica: string, seq: number | bigint, stamp: Stamp}}
 * @throws {WireError} `malformed('change')`, `tooLarge('change')`, or `invalidField('change.replica')`
 */
export function changeOrigin(bytes) {
  const wire = readChange(bytes);
  if (wire.replica.length !== 16) throw WireError.invalidField('change.replica');
  return { replica: toHex(wire.replica), seq: wire.seq, stamp: stampOf(wire.stamp) };
}

/** @param {Uint8Array} bytes */
function readChange(bytes) {
  if (!(bytes instanceof Uint8Array)) throw WireError.invalidField('change');
  if (bytes.length > WireLimits.maximumChangeBytes) throw WireError.tooLarge('change');
  try {
    return decodeMessage(schema.Change, bytes);
  } catch (error) {
    throw WireError.malformed('change', error);
  }
}

/** @param {Record<string, any>} wire */
function checkHeader(wire) {
  if (wire.replica.length !== 16) throw WireError.invalidField('change.replica');
  if (wire.seq === 0) throw WireError.invalidField('change.seq');
  if (wire.board.length === 0 || utf8Length(wire.board) > WireLimits.maximumNameBytes) {
    throw WireError.invalidField('change.document');
  }
  if (utf8Length(wire.type) > WireLimits.maximumNameBytes) throw WireError.invalidField('change.type');
  if (typeof wire.seq !== 'number') throw WireError.unrepresentable('change.seq');
  return { id: { replica: toHex(wire.replica), seq: wire.seq }, stamp: stampOf(wire.stamp) };
}

/** @param {bigint} bits @returns {Stamp} */
function stampOf(bits) {
  return { wall: Number(bits >> 16n), counter: Number(bits & 0xffffn) };
}

/**
 * A stamp's 64 bits: 48 bits of wall milliseconds, then a 16-bit counter.
 * @param {Stamp} stamp
 */
export function stampBits(stamp) {
  const { wall, counter } = stamp ?? /** @type {any} */ ({});
  if (!Number.isSafeInteger(wall) || wall < 0 || wall > MAX_WALL) throw WireError.invalidField('stamp.wall');
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffff) throw WireError.invalidField('stamp.counter');
  return (BigInt(wall) << 16n) | BigInt(counter);
}
