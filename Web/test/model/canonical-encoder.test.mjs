// The canonical encoder's primitives and the FNV-1a fingerprint.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CanonicalEncoder, fnv1a64 } from '../../js/model/canonical-encoder.js';
import { hex } from './support/vectors.mjs';

const encode = (write) => {
  const encoder = new CanonicalEncoder();
  write(encoder);
  return hex(encoder.bytes);
};

test('varints are LEB128, exact up to 2^53', () => {
  assert.equal(encode((e) => e.writeVarint(0)), '00');
  assert.equal(encode((e) => e.writeVarint(300)), 'ac02');
  assert.equal(encode((e) => e.writeVarint(0xffff_ffff)), 'ffffffff0f');
  assert.equal(encode((e) => e.writeVarint(2 ** 53 - 1)), 'ffffffffffffff0f');
});

test('doubles are big-endian bit patterns, −0 as 0 and one NaN', () => {
  assert.equal(encode((e) => e.writeDouble(1)), '3ff0000000000000');
  assert.equal(encode((e) => e.writeDouble(-0)), '0000000000000000');
  assert.equal(encode((e) => e.writeDouble(NaN)), '7ff8000000000000');
  assert.equal(encode((e) => e.writeDouble(-2.5)), 'c004000000000000');
});

test('the buffer grows past its first allocation', () => {
  const encoder = new CanonicalEncoder();
  for (let i = 0; i < 1000; i++) encoder.writeDouble(i);
  assert.equal(encoder.bytes.length, 8000);
  assert.equal(hex(encoder.bytes.subarray(7992)), '408f380000000000');
});

test('FNV-1a 64 matches the reference values', () => {
  const text = (s) => new TextEncoder().encode(s);
  assert.equal(fnv1a64(new Uint8Array()), 'cbf29ce484222325');
  assert.equal(fnv1a64(text('a')), 'af63dc4c8601ec8c');
  assert.equal(fnv1a64(text('foobar')), '85944171f73967e8');
  // And against a BigInt reference over many bytes.
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff);
  let reference = 0xcbf29ce484222325n;
  for (const byte of bytes) reference = ((reference ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  assert.equal(fnv1a64(bytes), reference.toString(16).padStart(16, '0'));
});
