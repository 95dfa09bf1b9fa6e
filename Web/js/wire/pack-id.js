// The id of the pack that holds exactly a set of changes of a room, whatever their order, as
// `PackID(room:changes:)` in Sources/InkwellClient/Session/PackID+Changes.swift: a pack pushed again after
// its ack was lost carries the same id, and the server stores it once.
//
// The 128-bit FNV-1a hash of `inkwell-pack/1`, the room's UTF-8 length (8 bytes big-endian) and bytes,
// the number of changes (8 bytes) and, for each change in (replica, seq) order, its 16 replica bytes and
// its seq (8 bytes big-endian). Not cryptographic: replica ids are random, so distinct packs collide only
// by accident.

import { WireError } from './errors.js';
import { fromHex, utf8Encode } from './bytes.js';

// The FNV-128 offset basis 0x6C62272E07BB014262B821756295C58D as eight 16-bit limbs, least significant
// first; the prime is 2^88 + 0x13B, so multiplying is a small product plus a shift.
const OFFSET_BASIS = [0xc58d, 0x6295, 0x2175, 0x62b8, 0x0142, 0x07bb, 0x272e, 0x6c62];
const PRIME_LOW = 0x13b;
const PREFIX = new TextEncoder().encode('inkwell-pack/1');

/**
 * @param {string} room
 * @param {{replica: string, seq: number | bigint}[]} changes change ids (replica as 32 hex digits)
 * @returns {Uint8Array} 16 bytes
 */
export function packId(room, changes) {
  const roomBytes = utf8Encode(room, 'room');
  const ids = changes.map(({ replica, seq }) => {
    if (typeof replica !== 'string' || replica.length !== 32) throw WireError.invalidField('change.replica');
    const big = BigInt(seq);
    if (big < 1n || big >= 1n << 64n) throw WireError.invalidField('change.seq');
    return { replica: replica.toLowerCase(), bytes: fromHex(replica, 'change.replica'), seq: big };
  });
  ids.sort((a, b) => (a.replica < b.replica ? -1 : a.replica > b.replica ? 1 : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const hash = Uint32Array.from(OFFSET_BASIS);
  const product = new Uint32Array(8);
  /** @param {Uint8Array} bytes */
  const combine = (bytes) => {
    for (let index = 0; index < bytes.length; index++) {
      hash[0] ^= bytes[index];
      // hash · 0x13B, then + hash << 88 (5 limbs and 8 bits), all mod 2^128
      let carry = 0;
      for (let limb = 0; limb < 8; limb++) {
        const value = hash[limb] * PRIME_LOW + carry;
        product[limb] = value & 0xffff;
        carry = value >>> 16;
      }
      carry = 0;
      for (let limb = 5; limb < 8; limb++) {
        const shifted = ((hash[limb - 5] & 0xff) << 8) | (limb >= 6 ? hash[limb - 6] >>> 8 : 0);
        const value = product[limb] + shifted + carry;
        product[limb] = value & 0xffff;
        carry = value >>> 16;
      }
      hash.set(product);
    }
  };
  combine(PREFIX);
  combine(uint64(BigInt(roomBytes.length)));
  combine(roomBytes);
  combine(uint64(BigInt(ids.length)));
  for (const id of ids) {
    combine(id.bytes);
    combine(uint64(id.seq));
  }
  const result = new Uint8Array(16);
  for (let limb = 0; limb < 8; limb++) {
    result[15 - 2 * limb] = hash[limb] & 0xff;
    result[14 - 2 * limb] = hash[limb] >>> 8;
  }
  return result;
}

/** @param {bigint} value */
function uint64(value) {
  const bytes = new Uint8Array(8);
  for (let index = 7; index >= 0; index--) {
    bytes[index] = Number(value & 0xffn);
    value >>= 8n;
  }
  return bytes;
}
