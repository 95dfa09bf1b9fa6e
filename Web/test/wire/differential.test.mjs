// Seeded mutations made by Swift (Conformance/wire.json `differential`): for every one, JavaScript reaches
// Swift's verdict — the same error, or a value that re-encodes to Swift's canonical bytes.

import assert from 'node:assert/strict';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack } from '../../js/wire/pack.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { fromHex, loadJSON, packJSON, recordedPackJSON, toHex } from './support.mjs';

/** Decodes as its kind says and returns what Swift recorded for a success (for a pack, in Swift's keys). */
const OUTCOME = {
  change: (bytes) => toHex(encodeChange(decodeChange(bytes))),
  pack: async (bytes, vector) => recordedPackJSON(packJSON(await decodePack(bytes)), vector.decoded ?? { id: '' }),
  clientFrame: (bytes) => toHex(encodeClientFrame(decodeClientFrame(bytes))),
  serverFrame: (bytes) => toHex(encodeServerFrame(decodeServerFrame(bytes))),
  points: (bytes) => {
    const { points, pressures } = decodePoints(bytes);
    return toHex(encodePoints(points, pressures));
  },
};

test('mutated bytes get the verdict Swift gave them', async (t) => {
  const { differential } = loadJSON('wire.json');
  assert.ok(differential.length >= 300);
  const tally = { decoded: 0, rejected: 0 };
  for (const [index, vector] of differential.entries()) {
    const label = `#${index} ${vector.kind} ${vector.bytes}`;
    let outcome;
    try {
      outcome = { decoded: await OUTCOME[vector.kind](fromHex(vector.bytes), vector) };
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      outcome = { error: error.message };
    }
    if (vector.error !== undefined) {
      assert.deepEqual(outcome, { error: vector.error }, label);
      tally.rejected++;
    } else {
      assert.deepEqual(outcome, { decoded: vector.decoded }, label);
      tally.decoded++;
    }
  }
  t.diagnostic(`${tally.decoded} decoded, ${tally.rejected} rejected, all as Swift`);
});
