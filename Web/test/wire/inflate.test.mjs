// The pure-JS inflate against Node's zlib, and where it stops: at the end of the stream, when the input
// runs out, or when a byte must be written with the output full (as one zlib call does).

import assert from 'node:assert/strict';
import test from 'node:test';
import { constants, deflateRawSync } from 'node:zlib';
import { deflateRaw } from '../../js/wire/deflate.js';
import { WireError } from '../../js/wire/errors.js';
import { inflateRaw } from '../../js/wire/inflate.js';
import { random } from './support.mjs';

const SEED = Number(process.env.INKWELL_SEED ?? Math.floor(Math.random() * 2 ** 32));

function sample(rng, length) {
  const kind = rng.below(3);
  return Uint8Array.from({ length }, (_, index) =>
    kind === 0 ? rng.below(256) : kind === 1 ? 97 + rng.below(4) : (index % 13) * 7,
  );
}

test(`inflates what zlib deflates, at every level and strategy (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED);
  for (let round = 0; round < 300; round++) {
    const data = sample(rng, rng.below(40_000));
    const level = rng.below(10);
    const strategy = rng.pick([constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED, constants.Z_HUFFMAN_ONLY, constants.Z_RLE]);
    const compressed = new Uint8Array(deflateRawSync(data, { level, strategy }));
    const result = inflateRaw(compressed, data.length);
    assert.equal(result.status, 'end');
    assert.equal(result.consumed, compressed.length);
    assert.deepEqual(result.output, data, `round ${round}, INKWELL_SEED=${SEED}`);
  }
});

test('stops where a single zlib call stops', () => {
  const data = new TextEncoder().encode('inkwell '.repeat(100));
  const compressed = new Uint8Array(deflateRawSync(data));
  const exact = inflateRaw(compressed, data.length);
  assert.equal(exact.status, 'end', 'a stream that ends exactly at the capacity ends');
  const short = inflateRaw(compressed, data.length - 1);
  assert.deepEqual([short.status, short.produced], ['output', data.length - 1]);
  const truncated = inflateRaw(compressed.slice(0, compressed.length - 2), data.length + 10);
  assert.equal(truncated.status, 'input');
  assert.ok(truncated.produced < data.length);
  assert.deepEqual([inflateRaw(new Uint8Array(0), 10).status, inflateRaw(new Uint8Array(0), 10).produced], ['input', 0]);
  const trailing = inflateRaw(Uint8Array.from([...compressed, 1, 2, 3]), data.length);
  assert.deepEqual([trailing.status, trailing.consumed], ['end', compressed.length]);
});

test('keeps only what it was asked to keep and counts the rest', () => {
  const compressed = new Uint8Array(deflateRawSync(Buffer.alloc(1 << 20, 1)));
  const result = inflateRaw(compressed, 1 << 20, 16);
  assert.deepEqual([result.status, result.produced, result.output.length], ['end', 1 << 20, 16]);
});

test('refuses what zlib refuses (checked against zlib 1.2.13 by hand)', () => {
  const bad = [
    [0x07], // block type 3
    [0x01, 0x05, 0x00, 0x00, 0x00], // stored lengths that do not match
    [0xed, 0xff, 0xff], // more than 286 literal/length symbols
    [0x03, 0x02, 0x00], // fixed codes: a match before any output
  ];
  for (const bytes of bad) {
    assert.throws(() => inflateRaw(Uint8Array.from(bytes), 100), WireError, Buffer.from(bytes).toString('hex'));
  }
});

test('the platform deflate writes raw deflate that inflates back', async () => {
  const data = new TextEncoder().encode('a pack body, '.repeat(500));
  const compressed = await deflateRaw(data);
  assert.ok(compressed.length < data.length / 5);
  assert.deepEqual(inflateRaw(compressed, data.length).output, data);
});
