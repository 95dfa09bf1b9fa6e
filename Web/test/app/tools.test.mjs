// The tools driven as the pointer drives them (js/app/tools/*.js), over an in-memory session.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PenTool } from '../../js/app/tools/pen.js';
import { SIMULATED_FLOOR, SIMULATED_START, simulatedPressure, snapPressure } from '../../js/app/ink.js';
import { EraserTool, eraserRadius } from '../../js/app/tools/eraser.js';
import { StrokeEraserTool } from '../../js/app/tools/stroke-eraser.js';
import { strokeId } from '../../js/model/ids.js';
import { add, at, line, recordingContext, toolContext } from './support.mjs';

test('the pen commits one snapped stroke at pen-up and streams it as ink meanwhile', () => {
  const context = toolContext({ settings: { colour: 0x1971c2ff, width: 5 } });
  const pen = new PenTool(context);
  pen.down(at(10.01, 10));
  pen.move([at(10.2, 10), at(20, 12), at(30, 15)]);
  assert.ok(pen.active);
  assert.equal(context.session.committed.length, 0, 'nothing committed while drawing');
  assert.deepEqual(context.ink.at(-1).points, [[10.01, 10], [20, 12], [30, 15]], 'a sample under a pixel away is dropped');
  pen.up(at(40, 15));
  assert.equal(pen.active, false);
  assert.equal(context.ink.at(-1), null, 'ink ends at pen-up');
  const [change] = context.session.committed;
  // A mouse reports no pressure: the stroke's comes from its speed, from the last sample kept.
  const pressures = [SIMULATED_START];
  const samples = [[10.01, 10], [20, 12], [30, 15], [40, 15]];
  for (let i = 1; i < samples.length; i++) {
    const step = Math.hypot(samples[i][0] - samples[i - 1][0], samples[i][1] - samples[i - 1][1]);
    pressures.push(simulatedPressure(pressures[i - 1], step));
  }
  assert.deepEqual(change.operations, [
    { op: 'addStroke', colour: 0x1971c2ff, width: 5, points: [[10, 10], [20, 12], [30, 15], [40, 15]], pressures: pressures.map(snapPressure) },
  ]);
});

test('simulated pressure: slow ink keeps its width, fast ink thins, never to nothing, and eases', () => {
  let slow = SIMULATED_START;
  let fast = SIMULATED_START;
  for (let i = 0; i < 40; i++) {
    slow = simulatedPressure(slow, 1);
    fast = simulatedPressure(fast, 60);
  }
  assert.ok(slow > 0.95 && slow <= 1, `slow ink stays near full width: ${slow}`);
  let after = fast;
  for (let i = 0; i < 60; i++) after = simulatedPressure(after, 1);
  assert.ok(after > 0.9, `ink that slows down widens again: ${after}`);
  assert.equal(fast, SIMULATED_FLOOR, 'fast ink thins to the floor');
  const one = simulatedPressure(SIMULATED_START, 60);
  assert.ok(one < SIMULATED_START && one > SIMULATED_START - 0.3, `one fast step eases: ${one}`);
  assert.ok(simulatedPressure(0.5, 0) > 0.5, 'a pause widens the ink');
});

test('a pen keeps its pressure; a cancelled stroke commits nothing', () => {
  const context = toolContext();
  const pen = new PenTool(context);
  pen.down(at(0, 0, { pointerType: 'pen', pressure: 0.2 }));
  pen.up(at(20, 0, { pointerType: 'pen', pressure: 0.8 }));
  assert.equal(context.session.committed[0].operations[0].pressures.length, 2);
  pen.down(at(0, 0));
  pen.move([at(50, 50)]);
  pen.cancel();
  assert.equal(context.session.committed.length, 1);
});

test('the pen draws its stroke on the overlay while it is down', () => {
  const context = toolContext();
  const pen = new PenTool(context);
  const ctx = recordingContext();
  pen.layer(ctx, context.renderer);
  assert.equal(ctx.calls.length, 0);
  pen.down(at(0, 0));
  pen.move([at(10, 0), at(20, 5)]);
  pen.layer(ctx, context.renderer);
  // A mouse's ink has a pressure from its speed: its outline is filled, its width following it.
  assert.ok(ctx.calls.some((call) => call[0] === 'arc'));
  assert.ok(ctx.calls.some((call) => call[0] === 'fill'));
});

test('shape recognition turns a rough line into a straight one', () => {
  const context = toolContext({ settings: { shapes: true } });
  const pen = new PenTool(context);
  pen.down(at(0, 0));
  pen.move(Array.from({ length: 30 }, (_, i) => at(i * 10, (i % 3) - 1)));
  pen.up(at(300, 0));
  assert.equal(pen.lastShape, 'line');
  assert.equal(context.session.committed[0].operations[0].points.length, 2);
});

test('the partial eraser shows its cuts at once and commits one change per drag', () => {
  const context = toolContext({ settings: { width: 1 } });
  const id = strokeId(context.session.commit([add(line(11))]).id, 0);
  const eraser = new EraserTool(context);
  assert.equal(eraser.radius, eraserRadius(1), 'screen pixels at 100 %');
  eraser.down(at(30, -30));
  eraser.move([at(30, 0), at(30, 30)]);
  eraser.move([at(70, 30), at(70, -30)]);
  assert.deepEqual(context.scene.stroke(id).shown.length, 3, 'both cuts show before pointer-up');
  assert.ok(context.renderer.invalidated.length >= 2);
  assert.equal(context.session.committed.length, 1);
  eraser.up(null);
  assert.equal(context.session.committed.length, 2, 'one erase change');
  assert.equal(context.session.committed[1].operations[0].intervals.length, 2);
  assert.equal(context.session.board.stroke(id).pieces.length, 3);
  context.session.undo();
  assert.deepEqual(context.session.board.stroke(id).pieces, [[0, 10]], 'one undo brings the whole drag back');
});

test('an eraser that cut nothing commits nothing; cancelling drops the preview', () => {
  const context = toolContext();
  const id = strokeId(context.session.commit([add(line(11))]).id, 0);
  const eraser = new EraserTool(context);
  eraser.down(at(50, 300));
  eraser.up(at(60, 300));
  assert.equal(context.session.committed.length, 1);
  eraser.down(at(50, -30));
  eraser.move([at(50, 30)]);
  eraser.cancel();
  assert.deepEqual(context.scene.stroke(id).shown, [[0, 10]]);
  assert.equal(context.session.committed.length, 1);
});

test('the eraser is the same size on screen at any zoom', () => {
  const context = toolContext({ settings: { width: 4 } });
  context.viewport.setScale(4);
  assert.equal(new EraserTool(context).radius, eraserRadius(4) / 4);
});

test('the stroke eraser hides touched strokes at once and deletes them in one change', () => {
  const context = toolContext();
  const a = strokeId(context.session.commit([add(line(11))]).id, 0);
  const b = strokeId(context.session.commit([add(line(11, { y: 100 }))]).id, 0);
  const c = strokeId(context.session.commit([add(line(11, { y: 200 }))]).id, 0);
  const eraser = new StrokeEraserTool(context);
  eraser.down(at(50, -20));
  eraser.move([at(50, 120)]);
  assert.deepEqual(context.scene.stroke(a).shown, []);
  assert.deepEqual(context.scene.stroke(b).shown, []);
  assert.deepEqual(context.scene.stroke(c).shown, [[0, 10]]);
  eraser.up(null);
  assert.equal(context.session.board.visibleStrokeCount, 1);
  assert.equal(context.session.committed.at(-1).operations.length, 2);
  context.session.undo();
  assert.equal(context.session.board.visibleStrokeCount, 3);
});
