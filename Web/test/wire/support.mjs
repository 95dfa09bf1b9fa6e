// Shared helpers for the wire tests: the conformance files, hex, JSON shapes, a seeded generator.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromHex, toHex } from '../../js/wire/bytes.js';
import { encodeChange } from '../../js/wire/change.js';
import { encodeMessage } from '../../js/wire/message.js';
import { signPack } from '../../js/wire/pack-signature.js';
import * as schema from '../../js/wire/schema.js';

export const conformance = (name) => fileURLToPath(new URL(`../../../Conformance/${name}`, import.meta.url));

export function loadJSON(name) {
  return JSON.parse(readFileSync(conformance(name), 'utf8'));
}

export { fromHex, toHex };

/** The input bytes of a vector: `bytes` as hex, or `pieces` of `[hex, count]` runs. */
export function vectorBytes(vector) {
  if (vector.bytes !== undefined) return fromHex(vector.bytes);
  const parts = vector.pieces.flatMap(([hex, count]) => Array(count).fill(hex));
  return fromHex(parts.join(''));
}

/** Replaces every Uint8Array with its hex, so values compare with the JSON in the vector files. */
export function toJSONShape(value) {
  if (value instanceof Uint8Array) return toHex(value);
  if (Array.isArray(value)) return value.map(toJSONShape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, toJSONShape(entry)]));
  }
  return value;
}

const BYTE_FIELDS = new Set(['device', 'server', 'packId', 'pack', 'points', 'bytes', 'sealed', 'adminHash', 'editHash', 'viewHash', 'snapshot', 'author', 'signature']);

/**
 * The codec's shape of a vector's JSON: hex strings of byte fields become Uint8Array (ink `points` is
 * bytes only inside frames; a change's `points` are coordinates and stay arrays).
 */
export function fromJSONShape(value, key = '') {
  if (typeof value === 'string' && BYTE_FIELDS.has(key)) return fromHex(value);
  if (Array.isArray(value)) return value.map((entry) => fromJSONShape(entry));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, fromJSONShape(entry, name)]));
  }
  return value;
}

/** A small seeded generator (mulberry32): every random choice in a test comes from a printed seed. */
export function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in 0..<bound. */
    below: (bound) => Math.floor(next() * bound),
    pick: (list) => list[Math.floor(next() * list.length)],
    bytes: (count) => Uint8Array.from({ length: count }, () => Math.floor(next() * 256)),
  };
}

/** Mutations of real bytes: random bytes, truncation, flipped, replaced, removed or inserted bytes. */
export function mutate(seed, rng) {
  const bytes = Array.from(seed);
  switch (rng.below(5)) {
    case 0:
      return rng.bytes(rng.below(64));
    case 1:
      return Uint8Array.from(bytes.slice(0, rng.below(bytes.length + 1)));
    default:
      for (let round = 1 + rng.below(4); round > 0 && bytes.length > 0; round--) {
        const index = rng.below(bytes.length);
        switch (rng.below(4)) {
          case 0:
            bytes[index] = rng.below(256);
            break;
          case 1:
            bytes[index] ^= 1 << rng.below(8);
            break;
          case 2:
            bytes.splice(index, 1);
            break;
          default:
            bytes.splice(index, 0, rng.below(256));
        }
      }
      return Uint8Array.from(bytes);
  }
}

const REPLICAS = ['a11ce000000000010000000000000000', 'b0b00000000000020000000000000000', '0123456789abcdef0123456789abcdef'];

/** A coordinate on the 1/8 px grid, a finer power-of-two grid, or off any grid. */
function coordinate(rng) {
  switch (rng.below(4)) {
    case 0:
      return rng.below(8000) / 8 - 500;
    case 1:
      return rng.below(1 << 20) / 1024 - 256;
    case 2:
      return rng.below(2_000_000_000) - 1_000_000_000;
    default:
      return rng.below(1_000_000) / 997 - 300;
  }
}

function ink(rng) {
  const count = rng.below(4) === 0 ? 0 : rng.below(40);
  const points = Array.from({ length: count }, () => [coordinate(rng), coordinate(rng)]);
  let pressures = null;
  if (rng.below(3) === 1 && count > 0) pressures = points.map(() => Math.fround(rng.below(256) / 255));
  if (rng.below(3) === 2 && count > 0) pressures = points.map(() => Math.fround(rng.below(1000) / 999));
  return { points, pressures };
}

function strokeId(rng) {
  const seq = rng.below(5) === 0 ? `${2n ** 60n + BigInt(rng.below(1000))}` : `${1 + rng.below(1000)}`;
  return `${rng.pick(REPLICAS)}-${seq}-${rng.below(4)}`;
}

/** A random operation of any kind, already in its canonical (decoded) form, for a change of `replica`. */
export function randomOperation(rng, replica, seq) {
  switch (rng.below(10)) {
    case 0:
    case 1:
      return { op: 'addStroke', colour: rng.below(2 ** 32), width: rng.below(80) / 4, ...ink(rng) };
    case 2:
      return { op: 'appendPoints', stroke: strokeId(rng), ...ink(rng) };
    case 3:
      return {
        op: 'erase',
        stroke: strokeId(rng),
        intervals: Array.from({ length: rng.below(4) }, () => [rng.below(100) / 8, rng.below(1000) / 7]),
      };
    case 4: {
      const attribute = rng.pick(['colour', 'width', 'transform', 'zOrder', 'deleted']);
      const value = {
        colour: rng.below(2 ** 32),
        width: rng.below(400) / 3,
        transform: [1, 0, 0.5, 1, coordinate(rng), coordinate(rng)],
        zOrder: rng.below(1000) - 500.5,
        deleted: rng.below(2) === 0,
      }[attribute];
      return { op: 'set', stroke: strokeId(rng), attribute, value };
    }
    case 5:
    case 6:
      return { op: rng.pick(['undo', 'redo']), change: { replica, seq: 1 + rng.below(seq) } };
    case 7:
      return { op: 'unknown', kind: 40 + rng.below(20), bytes: Uint8Array.from([0xc2 + 8 * rng.below(3), 0x02, 0x01, rng.below(256)]) };
    default:
      return { op: 'clear' };
  }
}

/** A random change in canonical form: it decodes from its own encoding unchanged. */
export function randomChange(rng, seq = 1 + rng.below(1_000_000)) {
  const replica = rng.pick(REPLICAS);
  const operations = Array.from({ length: 1 + rng.below(4) }, () => randomOperation(rng, replica, seq));
  // Unknown kinds go back as they came; their `kind` is the first field number, as decoding reports it.
  for (const operation of operations) {
    if (operation.op === 'unknown') operation.kind = ((operation.bytes[0] & 0x7f) | ((operation.bytes[1] & 0x7f) << 7)) >>> 3;
  }
  return {
    id: { replica, seq },
    stamp: { wall: 1_800_000_000_000 + rng.below(1_000_000), counter: rng.below(65536) },
    board: rng.pick(['main', 'page-2', 'pâge ✏️']),
    operations,
  };
}

/**
 * A pack made by hand, as no honest encoder would make it: `changes` (encoded) under entries of
 * `entryRoom` (empty: the envelope's), the envelope's other fields as given, signed by `signer` (a
 * signing key) unless it is null. For tests of what decoders refuse.
 * @param {{room?: string, author: Uint8Array, changes?: Uint8Array[], entryRoom?: string, schemaVersion?: number,
 *   encryption?: object | null, body?: Uint8Array, bodySize?: number, compression?: number}} fields
 * @param {import('../../js/wire/author-key.js').SigningKey | null} signer
 */
export async function handmadePack(fields, signer) {
  const { room = 'room-a', author, changes = [], entryRoom = '', schemaVersion = 1, encryption = null } = fields;
  const plain = encodeMessage(schema.PackBody, { entries: changes.map((change) => ({ room: entryRoom, change })) });
  const unsigned = encodeMessage(schema.Pack, {
    schemaVersion,
    compression: fields.compression ?? schema.Compression.none,
    body: fields.body ?? plain,
    bodySize: fields.bodySize ?? plain.length,
    encryption,
    room,
    author,
    signature: new Uint8Array(0),
  });
  return signer === null ? unsigned : signPack(unsigned, signer);
}

/** A change of `replica` (hex), as its encoded bytes. */
export function changeOf(replica, seq = 1, stamp = { wall: 1_800_000_000_000, counter: 0 }) {
  return encodeChange({ id: { replica, seq }, stamp, board: 'main', operations: [{ op: 'clear' }] });
}

/** `change` as if `replica` had made it: its id, and its undo and redo (which name the change's own timeline). */
export function reauthored(change, replica) {
  return {
    ...change,
    id: { ...change.id, replica },
    operations: change.operations.map((operation) =>
      operation.op === 'undo' || operation.op === 'redo' ? { ...operation, change: { ...operation.change, replica } } : operation,
    ),
  };
}

/**
 * A decoded pack in the JSON of the vector files: bytes as hex.
 * @param {import('../../js/wire/pack.js').Pack} pack
 */
export function packJSON(pack) {
  return toJSONShape({
    id: pack.id,
    room: pack.room,
    author: pack.author,
    replica: pack.replica,
    schemaVersion: pack.schemaVersion,
    changes: pack.changes,
  });
}

/** The keys of `packJSON`. */
const PACK_KEYS = ['id', 'room', 'author', 'replica', 'schemaVersion', 'changes'];

/**
 * `json` (a pack's `packJSON`, or a vector) in the keys of a pack that Swift recorded: the vector files
 * write some of them, next to keys of their own (`name`, `seed`, `bytes`, …).
 * @param {Record<string, any>} json
 * @param {Record<string, any>} recorded
 */
export function recordedPackJSON(json, recorded) {
  return Object.fromEntries(PACK_KEYS.filter((key) => key in recorded).map((key) => [key, json[key]]));
}
