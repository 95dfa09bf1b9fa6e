// Hostile bytes: random and mutated real encodings never make a decoder throw anything but WireError,
// and whatever decodes re-encodes and decodes again to the same value. The seed is printed; set
// INKWELL_SEED to replay a run, INKWELL_FUZZ_CASES to change its length.

import assert from 'node:assert/strict';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePackSync } from '../../js/wire/pack.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { fromHex, loadJSON, mutate, random, vectorBytes } from './support.mjs';

const CASES = Number(process.env.INKWELL_FUZZ_CASES ?? 20_000);
const SEED = Number(process.env.INKWELL_SEED ?? Math.floor(Math.random() * 2 ** 32));

/** Each decoder, and a check that what it decoded survives encode → decode. */
const DECODERS = [
  ['change', (bytes) => {
    const change = decodeChange(bytes);
    assert.deepEqual(decodeChange(encodeChange(change)), change);
  }],
  ['pack', (bytes) => {
    const pack = decodePackSync(bytes);
    for (const entry of pack.entries) {
      try {
        decodeChange(entry.change);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
      }
    }
  }],
  ['client frame', (bytes) => {
    const frame = decodeClientFrame(bytes);
    assert.deepEqual(decodeClientFrame(encodeClientFrame(frame)), frame);
  }],
  ['server frame', (bytes) => {
    const frame = decodeServerFrame(bytes);
    assert.deepEqual(decodeServerFrame(encodeServerFrame(frame)), frame);
  }],
  ['points', (bytes) => {
    const ink = decodePoints(bytes);
    assert.deepEqual(decodePoints(encodePoints(ink.points, ink.pressures)), ink);
  }],
];

test(`${CASES} random and mutated inputs throw only WireError (INKWELL_SEED=${SEED})`, (t) => {
  console.log(`wire fuzz: ${CASES} cases, INKWELL_SEED=${SEED}`);
  const wire = loadJSON('wire.json');
  const seeds = [
    ...wire.changes.map((vector) => fromHex(vector.bytes)),
    ...wire.packs.map((vector) => fromHex(vector.bytes)),
    ...wire.frames.map((vector) => fromHex(vector.bytes)),
    ...wire.points.map((vector) => fromHex(vector.bytes)),
    ...wire.invalid.filter((vector) => vector.bytes !== undefined).map(vectorBytes),
  ];
  const rng = random(SEED);
  const tally = { decoded: 0, rejected: 0 };
  for (let round = 0; round < CASES; round++) {
    const bytes = mutate(rng.pick(seeds), rng);
    for (const [name, decode] of DECODERS) {
      try {
        decode(bytes);
        tally.decoded++;
      } catch (error) {
        if (!(error instanceof WireError)) {
          assert.fail(`${name} threw ${error?.stack ?? error} for ${Buffer.from(bytes).toString('hex')} (INKWELL_SEED=${SEED}, round ${round})`);
        }
        tally.rejected++;
      }
    }
  }
  t.diagnostic(`decoded ${tally.decoded}, rejected ${tally.rejected}`);
  assert.ok(tally.decoded > 0 && tally.rejected > 0);
});

test('bytes fed one at a time (every prefix) decode or throw WireError', () => {
  const wire = loadJSON('wire.json');
  for (const vector of [...wire.changes.slice(0, 10), ...wire.frames]) {
    const bytes = fromHex(vector.bytes);
    for (let length = 0; length <= bytes.length; length++) {
      for (const [, decode] of DECODERS) {
        try {
          decode(bytes.subarray(length));
          decode(bytes.slice(0, length));
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
        }
      }
    }
  }
});
