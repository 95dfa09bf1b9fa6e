// Images on the wire (Operation field 12, AddImage): they round-trip byte for byte in the canonical proto3
// encoding swift-protobuf writes, whatever the board thinks of them (a blob name of the wrong length, a
// size of 0, a type no board shows all decode, and the board ignores them); what Swift's decoder cannot
// read (a type that is not UTF-8), or this page cannot hold (a size past 2^53 − 1), is kept as unknown.
// Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import test from 'node:test';
import { fromHex, toHex } from '../../js/wire/bytes.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { encodeMessage } from '../../js/wire/message.js';
import { decodeOperation, encodeOperation } from '../../js/wire/operation.js';
import * as schema from '../../js/wire/schema.js';
import { random } from './support.mjs';

const SEED = Number(process.env.INKWELL_SEED ?? Math.floor(Math.random() * 2 ** 32));

const replica = new Uint8Array(16).fill(0xa1);
const me = 'a1'.repeat(16);
const blob = 'ab'.repeat(32);
const png = toHex(new TextEncoder().encode('image/png'));

test('an image encodes to proto3 bytes, fields in number order, defaults left out', () => {
  const cases = [
    [
      { op: 'addImage', blob, bytes: 5, type: 'image/png', at: [0, 1.5], width: 40, height: 30 },
      '624a' +
        ('0a20' + blob) +
        '1005' +
        ('1a09' + png) +
        ('29' + '000000000000f83f') +
        ('31' + '0000000000004440') +
        ('39' + '0000000000003e40'),
    ],
    [{ op: 'addImage', blob: '', bytes: 0, type: '', at: [0, 0], width: 0, height: 0 }, '6200'],
    [
      { op: 'addImage', blob: '010203', bytes: 2 ** 53 - 1, type: 'text/html', at: [0, 0], width: 0, height: -1 },
      '6222' + '0a03010203' + '10ffffffffffffff0f' + '1a09' + toHex(new TextEncoder().encode('text/html')) +
        '39000000000000f0bf',
    ],
  ];
  for (const [operation, bytes] of cases) {
    assert.equal(toHex(encodeOperation(operation, replica)), bytes, JSON.stringify(operation));
    assert.deepEqual(decodeOperation(fromHex(bytes), replica), operation, JSON.stringify(operation));
  }
  // A name in capitals is the same bytes: it decodes in lowercase.
  const upper = { ...cases[0][0], blob: blob.toUpperCase() };
  assert.equal(toHex(encodeOperation(upper, replica)), cases[0][1]);
});

/** A random image, well formed or one the board ignores: the wire carries both alike. */
function randomImage(rng) {
  const types = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', '', 'ïmage/✏️', '\ufeffBOM'];
  const sides = [0, 1, 0.25, 100_000, 1e300, Infinity, -3, NaN];
  return {
    op: 'addImage',
    blob: toHex(rng.bytes(rng.pick([32, 32, 0, 3, 33]))),
    bytes: rng.pick([0, 1, rng.below(2 ** 31), 2 ** 53 - 1, rng.below(2 ** 21) * 2 ** 32 + rng.below(2 ** 32)]),
    type: rng.pick(types),
    // Not −0, which proto3 leaves out like 0 (as swift-protobuf does), and so reads back as 0.
    at: [rng.below(2_000_000) / 8 - 100_000, rng.pick([0, 1e9, -(1 + rng.below(1000)) / 3])],
    width: rng.pick([...sides, rng.below(4000) / 8]),
    height: rng.pick([...sides, rng.below(4000) / 8]),
  };
}

test(`random images round-trip exactly, in changes too (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0x1a6e);
  for (let round = 0; round < 500; round++) {
    const operations = Array.from({ length: 1 + rng.below(4) }, () => randomImage(rng));
    for (const operation of operations) {
      const bytes = encodeOperation(operation, replica);
      const decoded = decodeOperation(bytes, replica);
      assert.deepEqual(decoded, operation, `round ${round}, INKWELL_SEED=${SEED}`);
      assert.equal(toHex(encodeOperation(decoded, replica)), toHex(bytes));
    }
    const stamp = { wall: 1_800_000_000_000, counter: rng.below(65536) };
    const change = { id: { replica: me, seq: 1 + rng.below(1000) }, stamp, board: 'main', operations };
    const bytes = encodeChange(change);
    assert.deepEqual(decodeChange(bytes), change, `round ${round}, INKWELL_SEED=${SEED}`);
    assert.deepEqual(encodeChange(decodeChange(bytes)), bytes);
  }
});

/** AddImage bytes made by hand, as no honest encoder would make them. */
const imageBytes = (value) =>
  encodeMessage(schema.Operation, {
    kind: { case: 'addImage', value: { blob: new Uint8Array(32), size: 1, type: 'image/png', ...value } },
  });

test('a type that is not UTF-8, or a size past 2^53 − 1, is kept as an unknown operation, its bytes intact', () => {
  const unreadable = {
    'a type that is not UTF-8': fromHex('62260a20' + '09'.repeat(32) + '1a0269ff'),
    'a lone surrogate in UTF-8': fromHex('62270a20' + '09'.repeat(32) + '1a03eda080'),
    'a size of 2^53': imageBytes({ size: 2n ** 53n }),
    'a size of 2^64 − 1': imageBytes({ size: 2n ** 64n - 1n }),
  };
  for (const [name, bytes] of Object.entries(unreadable)) {
    const decoded = decodeOperation(bytes, replica);
    assert.deepEqual(decoded, { op: 'unknown', kind: 12, bytes }, name);
    assert.equal(toHex(encodeOperation(decoded, replica)), toHex(bytes), name);
  }
  assert.equal(decodeOperation(imageBytes({ size: 2 ** 53 - 1 }), replica).bytes, 2 ** 53 - 1);
});

test('the encoder refuses what no field can hold', () => {
  const image = { op: 'addImage', blob, bytes: 5, type: 'image/png', at: [0, 0], width: 40, height: 30 };
  const refused = [
    { ...image, blob: 'abc' },
    { ...image, blob: 'zz'.repeat(32) },
    { ...image, blob: undefined },
    { ...image, bytes: -1 },
    { ...image, bytes: 1.5 },
    { ...image, bytes: 2 ** 53 },
    { ...image, bytes: '5' },
    { ...image, type: '\ud800' },
    { ...image, type: 7 },
    { ...image, at: [0] },
    { ...image, at: [0, '1'] },
    { ...image, width: '40' },
    { ...image, height: undefined },
  ];
  for (const operation of refused) {
    assert.throws(() => encodeOperation(operation, replica), WireError, JSON.stringify(operation));
  }
});
