// Painting strokes (js/app/stroke-painter.js) into a context that records calls.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { paintStrokes } from '../../js/app/stroke-painter.js';
import { FakeSession, add, line, recordingContext } from './support.mjs';

const style = (colour) => `c${colour}`;
const count = (ctx, name) => ctx.calls.filter((call) => call[0] === name).length;

function sceneWith(operations) {
  const session = new FakeSession();
  for (const operation of operations) session.commit([operation]);
  const scene = new Scene(session.board);
  return { scene, strokes: scene.sort([...scene.strokes()]) };
}

test('strokes of one pen share a path and a stroke() call; a new colour starts another', () => {
  const { strokes } = sceneWith([add(line(4)), add(line(4, { y: 10 })), add(line(4, { y: 20 }), { colour: 0xff0000ff }), add(line(3, { y: 30 }))]);
  const ctx = recordingContext();
  paintStrokes(ctx, strokes, style);
  assert.equal(count(ctx, 'stroke'), 3);
  assert.equal(count(ctx, 'moveTo'), 4);
  assert.equal(count(ctx, 'bezierCurveTo'), 3 + 3 + 3 + 2);
  assert.deepEqual(ctx.calls.filter((call) => call[0] === '=strokeStyle').map((call) => call[1]), [style(255), style(0xff0000ff), style(255)]);
});

test('erased parts are not painted: a subpath per visible piece', () => {
  const session = new FakeSession();
  const change = session.commit([add(line(5))]);
  session.commit([{ op: 'erase', stroke: `${change.id.replica}-1-0`, intervals: [[1, 2.5]] }]);
  const scene = new Scene(session.board);
  const ctx = recordingContext();
  paintStrokes(ctx, scene.strokes(), style);
  const moves = ctx.calls.filter((call) => call[0] === 'moveTo');
  assert.deepEqual(moves, [['moveTo', 0, 0], ['moveTo', 25, 0]]);
  assert.equal(count(ctx, 'bezierCurveTo'), 1 + 2);
});

test('pressure paints runs of equal width; a dot is a filled circle', () => {
  const { strokes } = sceneWith([add(line(5), { width: 10, pressures: [0.5, 0.5, 0.5, 1, 1] }), add([[50, 50]], { width: 6 })]);
  const ctx = recordingContext();
  paintStrokes(ctx, strokes, style);
  const widths = ctx.calls.filter((call) => call[0] === '=lineWidth').map((call) => call[1]);
  assert.deepEqual(widths, [5, 7.5, 10]);
  assert.equal(count(ctx, 'stroke'), 3);
  const arc = ctx.calls.find((call) => call[0] === 'arc');
  assert.deepEqual(arc.slice(1, 4), [50, 50, 3]);
  assert.equal(count(ctx, 'fill'), 1);
});
