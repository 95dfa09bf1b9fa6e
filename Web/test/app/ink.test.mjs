// Pen-up: snapping and shape recognition (js/app/ink.js), as Swift's PenUp and InkGrid.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { penUpOperations, roundHalfAway, snapPoint, snapPressure } from '../../js/app/ink.js';

test('points snap to the 1/8-pixel grid, halves away from zero as Swift rounds', () => {
  assert.deepEqual(snapPoint([1.06, -1.06]), [1.0, -1.0]);
  assert.deepEqual(snapPoint([1.0625, -1.0625]), [1.125, -1.125], 'a half step goes away from zero');
  assert.deepEqual(snapPoint([0.3, 1e6 + 0.01]), [0.25, 1e6]);
  assert.equal(roundHalfAway(-2.5), -3);
  assert.equal(roundHalfAway(2.5), 3);
  assert.equal(roundHalfAway(-2.4), -2);
});

test('pressures snap to 1/255 steps as 32-bit floats, clamped to 0…1', () => {
  assert.equal(snapPressure(0.5), Math.fround(128 / 255));
  assert.equal(snapPressure(1.5), 1);
  assert.equal(snapPressure(-1), 0);
  for (let k = 0; k <= 255; k++) assert.equal(snapPressure(k / 255), Math.fround(k / 255), `step ${k}`);
});

test('ink is committed as one addStroke of snapped points', () => {
  const { operations, shape } = penUpOperations([[0.01, 0], [10.3, 5.06]], [0.2, 0.9], { colour: 0xff0000ff, width: 3 }, false);
  assert.equal(shape.kind, 'none');
  assert.deepEqual(operations, [
    { op: 'addStroke', colour: 0xff0000ff, width: 3, points: [[0, 0], [10.25, 5]], pressures: [snapPressure(0.2), snapPressure(0.9)] },
  ]);
});

test('with recognition on, a rough rectangle becomes its clean outline, without pressure', () => {
  const rough = [];
  for (let i = 0; i <= 20; i++) rough.push([i * 10, (i % 2) * 0.8]);
  for (let i = 1; i <= 10; i++) rough.push([200 + (i % 2) * 0.8, i * 10]);
  for (let i = 1; i <= 20; i++) rough.push([200 - i * 10, 100 - (i % 2) * 0.8]);
  for (let i = 1; i <= 10; i++) rough.push([(i % 2) * 0.8, 100 - i * 10]);
  const pressures = rough.map(() => 0.5);
  const { operations, shape } = penUpOperations(rough, pressures, { colour: 255, width: 2 }, true);
  assert.equal(shape.kind, 'rectangle');
  assert.equal(operations.length, 1);
  assert.equal(operations[0].points.length, 5);
  assert.deepEqual(operations[0].points[0], operations[0].points[4], 'closed');
  assert.equal(operations[0].pressures, null);
  for (const [x, y] of operations[0].points) assert.ok(Number.isInteger(x * 8) && Number.isInteger(y * 8), 'on the grid');
  assert.equal(penUpOperations(rough, null, { colour: 255, width: 2 }, false).operations[0].points.length, rough.length);
});

test('a highlighter names its brush; a pen names none', () => {
  const points = [[0, 0], [10, 0]];
  assert.equal('brush' in penUpOperations(points, null, { colour: 255, width: 2 }, false).operations[0], false);
  assert.equal(penUpOperations(points, null, { colour: 255, width: 2, brush: 'pen' }, false).operations[0].brush, undefined);
  const [marker] = penUpOperations(points, null, { colour: 0xffd43b66, width: 16, brush: 'highlighter' }, false).operations;
  assert.equal(marker.brush, 'highlighter');
  assert.equal(marker.colour, 0xffd43b66);
});
