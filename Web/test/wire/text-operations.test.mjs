// Text box operations on the wire (Operation fields 9–11: AddText, InsertText, DeleteText): they round-trip
// byte for byte in the canonical proto3 encoding swift-protobuf writes, and what Swift's decoder cannot
// read (text that is not UTF-8, an offset without `after`, a missing or zero reference, an empty range,
// over 10,000 ranges) is kept as unknown.
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
const other = 'b2'.repeat(16);

test('the three text operations encode to proto3 bytes, fields in number order, defaults left out', () => {
  const cases = [
    [
      { op: 'addText', colour: 0xff0000ff, size: 16, at: [10.5, -3] },
      '4a20' + '0dff0000ff' + '110000000000003040' + '190000000000002540' + '2100000000000008c0',
    ],
    [{ op: 'addText', colour: 0, size: 0, at: [0, 0] }, '4a00'],
    [{ op: 'insertText', box: `${me}-3-0`, after: null, text: 'hé🙂' }, '520d' + '0a021003' + '220768c3a9f09f9982'],
    [
      { op: 'insertText', box: `${other}-3-1`, after: { run: `${me}-4-0`, offset: 7 }, text: 'x' },
      '5221' + '0a160a10' + other + '10031801' + '12021004' + '1807' + '220178',
    ],
    [
      { op: 'insertText', box: `${me}-3-0`, after: { run: `${me}-4-2`, offset: 0 }, text: 'x' },
      '520d' + '0a021003' + '120410041802' + '220178',
    ],
    [
      {
        op: 'deleteText',
        box: `${me}-3-0`,
        ranges: [
          { run: `${me}-4-0`, from: 0, to: 2 },
          { run: `${other}-9-1`, from: 5, to: 6 },
        ],
      },
      '5a2a' + '0a021003' + '1206' + '0a0210041802' + '121c' + '0a160a10' + other + '10091801' + '10051806',
    ],
  ];
  for (const [operation, bytes] of cases) {
    assert.equal(toHex(encodeOperation(operation, replica)), bytes, operation.op);
    assert.deepEqual(decodeOperation(fromHex(bytes), replica), operation, operation.op);
  }
});

/** A random reference in the JSON form: this change's replica or another's. */
function reference(rng) {
  return `${rng.pick([me, other])}-${1 + rng.below(1000)}-${rng.below(4)}`;
}

function randomTextOperation(rng) {
  const texts = ['a', 'hé', '🙂\n', 'x'.repeat(300), '', '\ufeffBOM', 'Ünïcödé ✏️'];
  switch (rng.below(3)) {
    case 0:
      return {
        op: 'addText',
        colour: rng.below(2 ** 32),
        size: rng.below(4000) / 4,
        // Not −0, which proto3 leaves out like 0 (as swift-protobuf does), and so reads back as 0.
        at: [rng.below(2_000_000) / 8 - 100_000, -(1 + rng.below(1000)) / 3],
      };
    case 1: {
      const after = rng.below(3) === 0 ? null : { run: reference(rng), offset: rng.pick([0, 1, rng.below(2 ** 32)]) };
      return { op: 'insertText', box: reference(rng), after, text: rng.pick(texts) };
    }
    default: {
      // Non-empty ranges: Swift reads an empty one as an unknown operation.
      const ranges = Array.from({ length: rng.below(5) }, () => {
        const from = rng.pick([0, rng.below(2 ** 32 - 1)]);
        return { run: reference(rng), from, to: rng.pick([from + 1, from + 1 + rng.below(2 ** 32 - 1 - from)]) };
      });
      return { op: 'deleteText', box: reference(rng), ranges };
    }
  }
}

test(`random text operations round-trip exactly, in changes too (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0x7e47);
  for (let round = 0; round < 500; round++) {
    const operations = Array.from({ length: 1 + rng.below(4) }, () => randomTextOperation(rng));
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

/** Operation bytes made by hand, as no honest encoder would make them. */
const operationBytes = (kind, value) => encodeMessage(schema.Operation, { kind: { case: kind, value } });
const ref = (seq, index = 0) => ({ replica: new Uint8Array(0), seq, index });
const insertBytes = (box, after, offset = 0, text = 'x') => operationBytes('insertText', { box, after, offset, text });
const deleteBytes = (box, run) => operationBytes('deleteText', { box, ranges: [{ run, from: 0, to: 1 }] });

test('what Swift cannot read is kept as an unknown operation, its bytes intact', () => {
  const unreadable = {
    'text that is not UTF-8': fromHex('52070a0210012201ff'),
    'an overlong UTF-8 encoding': fromHex('52080a0210012202c0af'),
    'a lone surrogate in UTF-8': fromHex('52090a021001' + '2203eda080'),
    'an offset without after': insertBytes(ref(1), null, 5),
    'an insert without a box': insertBytes(null, null),
    'an insert into a box of seq 0': insertBytes(ref(0), null),
    'an insert after a run of seq 0': insertBytes(ref(1), ref(0)),
    'a delete without a box': deleteBytes(null, ref(1)),
    'a range without a run': deleteBytes(ref(1), null),
    'a range in a run of seq 0': deleteBytes(ref(1), ref(0)),
    'a reference of 3 replica bytes': insertBytes({ replica: new Uint8Array(3), seq: 1, index: 0 }, null),
    'an empty range': operationBytes('deleteText', { box: ref(1), ranges: [{ run: ref(1), from: 3, to: 3 }] }),
    'a range backwards': operationBytes('deleteText', {
      box: ref(1),
      ranges: [
        { run: ref(1), from: 0, to: 1 },
        { run: ref(1), from: 4, to: 3 },
      ],
    }),
    'over 10,000 ranges': operationBytes('deleteText', {
      box: ref(1),
      ranges: Array.from({ length: 10_001 }, () => ({ run: ref(1), from: 0, to: 1 })),
    }),
  };
  for (const [name, bytes] of Object.entries(unreadable)) {
    const decoded = decodeOperation(bytes, replica);
    assert.equal(decoded.op, 'unknown', name);
    assert.equal(decoded.kind, bytes[0] >> 3, name);
    assert.equal(toHex(encodeOperation(decoded, replica)), toHex(bytes), name);
  }
  // The same bytes, readable: an offset after a run, and text in UTF-8.
  assert.deepEqual(decodeOperation(insertBytes(ref(1), ref(2), 5), replica), {
    op: 'insertText',
    box: `${me}-1-0`,
    after: { run: `${me}-2-0`, offset: 5 },
    text: 'x',
  });
  const most = Array.from({ length: 10_000 }, () => ({ run: ref(1), from: 0, to: 1 }));
  const ten = decodeOperation(operationBytes('deleteText', { box: ref(1), ranges: most }), replica);
  assert.equal(ten.op === 'deleteText' && ten.ranges.length, 10_000);
  assert.deepEqual(decodeOperation(operationBytes('deleteText', { box: ref(2), ranges: [] }), replica), {
    op: 'deleteText',
    box: `${me}-2-0`,
    ranges: [],
  });
  assert.deepEqual(decodeOperation(fromHex('52070a02100122017a'), replica), {
    op: 'insertText',
    box: `${me}-1-0`,
    after: null,
    text: 'z',
  });
});

test('the encoder refuses what no field can hold', () => {
  const refused = [
    { op: 'addText', colour: -1, size: 1, at: [0, 0] },
    { op: 'addText', colour: 1, size: '1', at: [0, 0] },
    { op: 'addText', colour: 1, size: 1, at: [0] },
    { op: 'insertText', box: `${me}-1-0`, after: null, text: '\ud800' },
    { op: 'insertText', box: `${me}-1-0`, after: null, text: 7 },
    { op: 'insertText', box: `${me}-1-0`, after: { run: `${me}-2-0`, offset: 2 ** 32 }, text: 'x' },
    { op: 'insertText', box: `${me}-0-0`, after: null, text: 'x' },
    { op: 'insertText', box: 'nope', after: null, text: 'x' },
    { op: 'deleteText', box: `${me}-1-0`, ranges: [{ run: `${me}-2-0`, from: -1, to: 1 }] },
    { op: 'deleteText', box: `${me}-1-0`, ranges: [null] },
    { op: 'deleteText', box: `${me}-1-0`, ranges: 'all' },
  ];
  for (const operation of refused) {
    assert.throws(() => encodeOperation(operation, replica), WireError, JSON.stringify(operation));
  }
});
