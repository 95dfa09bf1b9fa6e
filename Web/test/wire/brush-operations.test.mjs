// Brushes and fills on the wire (AddStroke field 4, `brush`; SetAttribute field 7, `fill`): they round-trip
// byte for byte in the canonical proto3 encoding swift-protobuf writes (a pen's brush, 0, left out, so a
// pen's stroke is the bytes it was before brushes; a fill always written, 0 too, as any oneof member), and
// a brush this version does not know keeps its stroke as unknown, as Swift keeps it.
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

/** The AddStroke of a highlighter in wire.json's "a highlighter and fills", up to its brush. */
const stroke = { op: 'addStroke', colour: 0xffdd0060, width: 18, points: [[0, 0], [8, 1]], pressures: null };
const strokeFields = '0d6000ddff' + '110000000000003240' + '1a08' + '0801' + '120400001002';

test('a highlighter writes its brush after its points; a pen writes none, named or not', () => {
  const highlighter = { ...stroke, brush: 'highlighter' };
  const bytes = '0a1a' + strokeFields + '2001';
  assert.equal(toHex(encodeOperation(highlighter, replica)), bytes);
  assert.deepEqual(decodeOperation(fromHex(bytes), replica), highlighter);
  const pen = '0a18' + strokeFields;
  assert.equal(toHex(encodeOperation(stroke, replica)), pen);
  assert.equal(toHex(encodeOperation({ ...stroke, brush: 'pen' }, replica)), pen);
  // A pen's stroke decodes naming no brush, as Swift's JSON of it does.
  assert.deepEqual(decodeOperation(fromHex(pen), replica), stroke);
});

test('a fill is a fixed32 in field 7, written even when it is 0', () => {
  const cases = [
    [{ op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: 0x0078ff40 }, '2209' + '0a021001' + '3d40ff7800'],
    [{ op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: 0 }, '2209' + '0a021001' + '3d00000000'],
    [{ op: 'set', stroke: `${me}-2-3`, attribute: 'fill', value: 0xffffffff }, '220b' + '0a0410021803' + '3dffffffff'],
  ];
  for (const [operation, bytes] of cases) {
    assert.equal(toHex(encodeOperation(operation, replica)), bytes, JSON.stringify(operation));
    assert.deepEqual(decodeOperation(fromHex(bytes), replica), operation, JSON.stringify(operation));
  }
});

/** An AddStroke of one point with the brush number given, as a newer schema might write it. */
const brushBytes = (brush) =>
  encodeMessage(schema.Operation, {
    kind: { case: 'addStroke', value: { colour: 0, width: 1, points: { scale: 1, residuals: [0, 0] }, brush } },
  });

test('a brush of a newer schema keeps its stroke as unknown, bytes intact', () => {
  // wire.json's "a brush of a newer schema decodes as unknown".
  const vector = fromHex('0a0a1a060808120200002007');
  assert.deepEqual(decodeOperation(vector, replica), { op: 'unknown', kind: 1, bytes: vector });
  for (const brush of [2, 7, 0xffffffff]) {
    const bytes = brushBytes(brush);
    const decoded = decodeOperation(bytes, replica);
    assert.deepEqual(decoded, { op: 'unknown', kind: 1, bytes }, `brush ${brush}`);
    assert.equal(toHex(encodeOperation(decoded, replica)), toHex(bytes), `brush ${brush}`);
  }
  assert.equal(decodeOperation(brushBytes(1), replica).brush, 'highlighter');
});

test('the encoder refuses a brush or a fill no field can hold', () => {
  const refused = [
    { ...stroke, brush: 'marker' },
    { ...stroke, brush: 1 },
    { ...stroke, brush: null },
    { op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: -1 },
    { op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: 2 ** 32 },
    { op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: 0.5 },
    { op: 'set', stroke: `${me}-1-0`, attribute: 'fill', value: '255' },
  ];
  for (const operation of refused) {
    assert.throws(() => encodeOperation(operation, replica), WireError, JSON.stringify(operation));
  }
});

test(`random highlighters and fills round-trip exactly, in changes too (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0xb7a5);
  const point = () => [rng.below(8000) / 8 - 500, rng.below(8000) / 8];
  for (let round = 0; round < 300; round++) {
    const operations = Array.from({ length: 1 + rng.below(4) }, () => {
      if (rng.below(2) === 0) {
        const points = Array.from({ length: 1 + rng.below(6) }, point);
        const width = 1 + rng.below(80) / 4;
        const add = { op: 'addStroke', colour: rng.below(2 ** 32), width, points, pressures: null };
        return rng.below(2) === 0 ? add : { ...add, brush: 'highlighter' };
      }
      const target = `${me}-${1 + rng.below(1000)}-${rng.below(4)}`;
      return { op: 'set', stroke: target, attribute: 'fill', value: rng.pick([0, rng.below(2 ** 32), 0xffffffff]) };
    });
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
