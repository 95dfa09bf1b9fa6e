// Painting strokes (js/app/stroke-painter.js) into a context that records calls.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { stepsFor } from '../../js/app/pressure-outline.js';
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

test('pressure fills one outline whose width follows it; a dot is a filled circle', () => {
  const { strokes } = sceneWith([add(line(5), { width: 10, pressures: [0.5, 0.5, 0.5, 1, 1] }), add([[50, 50]], { width: 6 })]);
  const ctx = recordingContext();
  paintStrokes(ctx, strokes, style);
  assert.equal(count(ctx, 'stroke'), 0);
  assert.equal(count(ctx, 'fill'), 2, 'the outline, then the dot');
  const radii = ctx.calls.filter((call) => call[0] === 'arc').map((call) => call[3]);
  assert.equal(radii[0], 2.5, 'half pressure: half the width');
  assert.equal(radii.at(-2), 5, 'full pressure at the end');
  assert.ok(radii.some((r) => r > 2.5 && r < 5), 'swelling smoothly between');
  assert.deepEqual(ctx.calls.filter((call) => call[0] === 'arc').at(-1).slice(1, 4), [50, 50, 3]);
});

test('an outline is computed once per stroke and kept until what shows changes', () => {
  const { strokes } = sceneWith([add(line(5), { width: 10, pressures: [0.5, 0.5, 0.5, 1, 1] })]);
  paintStrokes(recordingContext(), strokes, style);
  const kept = strokes[0].pressureCache;
  assert.ok(kept !== undefined);
  paintStrokes(recordingContext(), strokes, style);
  assert.equal(strokes[0].pressureCache, kept, 'a second paint replays it');
  strokes[0].shown = [[0, 2]];
  paintStrokes(recordingContext(), strokes, style);
  assert.notEqual(strokes[0].pressureCache, kept, 'a cut stroke is outlined again');
});

test('zoomed out, pressure ink is sampled less, and thinner than two device pixels it is a batched line', () => {
  // Points 10 px apart, 10 px wide at a mean pressure of 0.7.
  const pressures = [0.5, 0.5, 0.5, 1, 1];
  const { strokes } = sceneWith([add(line(5), { width: 10, pressures }), add(line(5, { y: 30 }), { width: 10, pressures })]);
  const arcs = (scale) => {
    const ctx = recordingContext();
    paintStrokes(ctx, strokes, style, scale);
    return count(ctx, 'arc');
  };
  assert.deepEqual([stepsFor(Infinity), stepsFor(NaN), stepsFor(20), stepsFor(6), stepsFor(3), stepsFor(0.5)], [4, 4, 4, 2, 1, 1]);
  assert.equal(arcs(Infinity), 2 * (4 * 4 + 1), 'four samples a segment, in an export');
  assert.equal(arcs(1), 2 * (4 * 4 + 1), 'at 100 %: segments 10 px long');
  assert.equal(arcs(0.5), 2 * (2 * 4 + 1), 'at 50 %: 5 px long, two samples');
  assert.equal(arcs(0.3), 2 * (1 * 4 + 1), 'at 30 %: 3 px long, one');
  const ctx = recordingContext();
  paintStrokes(ctx, strokes, style, 0.2);
  assert.equal(count(ctx, 'arc'), 0, 'at 20 %: 1.4 device pixels wide, a line');
  assert.equal(count(ctx, 'stroke'), 1, 'both in one stroke() call');
  assert.deepEqual(ctx.calls.filter((call) => call[0] === '=lineWidth').map((call) => call[1]), [7], 'of the mean width');
});

test('a fill paints the whole closed curve beneath the ink; translucent ink is never batched', () => {
  const session = new FakeSession();
  const change = session.commit([add([[0, 0], [40, 0], [40, 40], [0, 40]]), { ...add(line(3, { y: 80 }), { colour: 0xffd43b66 }), brush: 'highlighter' }, { ...add(line(3, { y: 90 }), { colour: 0xffd43b66 }), brush: 'highlighter' }]);
  const id = `${change.id.replica}-1-0`;
  session.commit([{ op: 'set', stroke: id, attribute: 'fill', value: 0x1971c259 }]);
  session.commit([{ op: 'erase', stroke: id, intervals: [[1, 2]] }]);
  const scene = new Scene(session.board);
  const strokes = scene.sort([...scene.strokes()]);
  const ctx = recordingContext();
  paintStrokes(ctx, strokes, style);
  const names = ctx.calls.map((call) => call[0]).filter((name) => ['fill', 'stroke', 'closePath'].includes(name));
  assert.deepEqual(names, ['stroke', 'stroke', 'closePath', 'fill', 'stroke'], 'two highlighters (beneath), then the fill, then its ink');
  const fillStart = ctx.calls.findIndex((call) => call[0] === '=fillStyle');
  assert.equal(ctx.calls[fillStart][1], style(0x1971c259));
  const closed = ctx.calls.slice(fillStart, ctx.calls.findIndex((call) => call[0] === 'closePath'));
  assert.equal(closed.filter((call) => call[0] === 'bezierCurveTo').length, 3, 'every segment, erased ones too');
  assert.ok(scene.query({ minX: 18, minY: 18, maxX: 22, maxY: 22 }).some((stroke) => stroke.id === id), 'the inside is where the stroke is');
});
