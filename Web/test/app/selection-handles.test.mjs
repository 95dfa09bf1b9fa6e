// The selection box's handles and what dragging them does (js/app/selection-handles.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANDLE_PIXELS, ROTATE_PIXELS, dragMatrix, grabAt, handles, transformedCorners } from '../../js/app/selection-handles.js';

const box = { minX: 100, minY: 100, maxX: 300, maxY: 200 };
const close = (actual, expected, message) =>
  assert.ok(actual.every((value, i) => Math.abs(value - expected[i]) < 1e-9), `${message}: ${actual} ≠ ${expected}`);

test('handles keep their size on screen at any zoom', () => {
  for (const scale of [0.25, 1, 4]) {
    const { corners, rotate, size } = handles(box, scale);
    assert.equal(size * scale, HANDLE_PIXELS);
    assert.deepEqual(Object.fromEntries(corners), { nw: [100, 100], ne: [300, 100], sw: [100, 200], se: [300, 200] });
    assert.deepEqual(rotate, [200, 100 - ROTATE_PIXELS / scale]);
  }
});

test('a press takes a corner, the rotate handle, the inside, or nothing', () => {
  assert.equal(grabAt(box, [103, 97], 1), 'nw');
  assert.equal(grabAt(box, [298, 204], 1), 'se');
  assert.equal(grabAt(box, [300, 100], 1), 'ne');
  assert.equal(grabAt(box, [101, 199], 1), 'sw');
  assert.equal(grabAt(box, [200, 100 - ROTATE_PIXELS], 1), 'rotate');
  assert.equal(grabAt(box, [200, 150], 1), 'move');
  assert.equal(grabAt(box, [200, 250], 1), null);
  assert.equal(grabAt(box, [115, 100], 1), 'move', 'beyond a corner’s reach on the edge');
  assert.equal(grabAt(box, [115, 100], 0.25), 'nw', 'zoomed out, the reach in board pixels grows');
});

test('dragging the inside moves by the drag, on the ink grid', () => {
  assert.deepEqual(dragMatrix('move', box, [150, 150], [160.06, 130]), [1, 0, 0, 1, 10, -20]);
});

test('a corner scales about the opposite corner; Shift keeps the aspect ratio', () => {
  const m = dragMatrix('se', box, [300, 200], [500, 250]);
  close(m, [2, 0, 0, 1.5, -100, -50], 'se by (200, 50)');
  close(transformedCorners(box, m)[0], [100, 100], 'the pivot stays');
  close(transformedCorners(box, m)[2], [500, 250], 'the corner follows the pointer');
  close(dragMatrix('se', box, [300, 200], [500, 250], { shift: true }), [2, 0, 0, 2, -100, -100], 'the larger stretch on both axes');
  close(dragMatrix('nw', box, [100, 100], [200, 150]), [0.5, 0, 0, 0.5, 150, 100], 'nw scales about se');
  const flipped = dragMatrix('ne', box, [300, 100], [0, 100]);
  close(flipped, [-0.5, 0, 0, 1, 150, 0], 'dragging past the pivot mirrors');
  const flat = dragMatrix('se', box, [300, 200], [100, 200]);
  assert.ok(Math.abs(flat[0]) > 0, 'never collapses to nothing');
});

test('the rotate handle turns about the centre; Shift snaps to 15°', () => {
  const centre = [200, 150];
  const m = dragMatrix('rotate', box, [200, 50], [300, 150]); // a quarter turn, clockwise on screen
  close(m, [0, 1, -1, 0, 350, -50], 'a quarter turn about (200, 150)');
  close([m[0] * centre[0] + m[2] * centre[1] + m[4], m[1] * centre[0] + m[3] * centre[1] + m[5]], centre, 'the centre stays');
  const snapped = dragMatrix('rotate', box, [200, 50], [200 + Math.sin(0.3) * 100, 150 - Math.cos(0.3) * 100], { shift: true });
  close([Math.atan2(snapped[1], snapped[0])], [Math.PI / 12], '0.3 rad snaps to 15°');
});
