// The tools driven as the pointer drives them (js/app/tools/*.js), over an in-memory session.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKPOINT_INTERVAL, PenTool } from '../../js/app/tools/pen.js';
import { HighlighterTool } from '../../js/app/tools/highlighter.js';
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
  assert.deepEqual(context.ink.at(-1).points, [[10, 10], [20, 12], [30, 15]], 'a sample under a pixel away is dropped; ink goes on the grid');
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

/** An interval timer that ticks when the test says. */
function manualTimer() {
  const timer = {
    callback: null,
    interval: null,
    setInterval(callback, ms) {
      timer.callback = callback;
      timer.interval = ms;
      return 1;
    },
    clearInterval() {
      timer.callback = null;
    },
    tick() {
      timer.callback?.();
    },
  };
  return timer;
}

test('a long stroke is saved while it is drawn: an add, then appends, one undo step', () => {
  const context = toolContext({ settings: { colour: 0x2f9e44ff, width: 3 } });
  const timer = manualTimer();
  const pen = new PenTool(context, { timers: timer });
  pen.down(at(0, 0, { pointerType: 'pen', pressure: 0.5 }));
  assert.equal(timer.interval, CHECKPOINT_INTERVAL);
  pen.move([at(10, 0, { pointerType: 'pen', pressure: 0.6 }), at(20.06, 1, { pointerType: 'pen', pressure: 0.7 })]);
  timer.tick();
  const [first] = context.session.committed;
  assert.deepEqual(first.operations, [
    { op: 'addStroke', colour: 0x2f9e44ff, width: 3, points: [[0, 0], [10, 0], [20, 1]], pressures: [0.5, 0.6, 0.7].map(snapPressure) },
  ]);
  const id = strokeId(first.id, 0);
  assert.deepEqual(context.ink.at(-1).points, [[20, 1]], 'presence carries only the ink not saved, from the last saved point');
  timer.tick();
  assert.equal(context.session.committed.length, 1, 'a tick with nothing new saves nothing');
  pen.move([at(30, 2, { pointerType: 'pen', pressure: 0.8 })]);
  assert.deepEqual(context.ink.at(-1).points, [[20, 1], [30, 2]]);
  timer.tick();
  assert.deepEqual(context.session.committed[1].operations, [{ op: 'appendPoints', stroke: id, points: [[30, 2]], pressures: [snapPressure(0.8)] }]);
  pen.up(at(40, 2, { pointerType: 'pen', pressure: 0.9 }));
  assert.equal(timer.callback, null, 'the timer stops at pen-up');
  assert.equal(context.session.committed.length, 3);
  assert.deepEqual(context.session.committed[2].operations[0].points, [[40, 2]]);
  assert.deepEqual(context.session.board.points(id), [[0, 0], [10, 0], [20, 1], [30, 2], [40, 2]]);
  assert.equal(context.ink.at(-1), null);
  context.session.undo();
  assert.equal(context.session.board.stroke(id), null, 'one undo takes back the whole stroke');
  assert.equal(context.session.undo(), null, 'and it was one step');
  context.session.redo();
  assert.deepEqual(context.session.board.stroke(id).points.length, 5);
});

test('the overlay paints only the ink not saved yet', () => {
  const context = toolContext();
  const timer = manualTimer();
  const pen = new HighlighterTool(context, { timers: timer });
  pen.down(at(0, 0));
  pen.move(Array.from({ length: 20 }, (_, i) => at(10 + i * 10, 0)));
  const before = recordingContext();
  pen.layer(before, context.renderer);
  timer.tick();
  pen.move([at(300, 0)]);
  const after = recordingContext();
  pen.layer(after, context.renderer);
  const xs = (ctx) => ctx.calls.filter((call) => call[0] === 'lineTo' || call[0] === 'moveTo').map((call) => call[1]);
  assert.ok(Math.min(...xs(before)) < 1, 'the whole stroke before it is saved');
  assert.ok(Math.min(...xs(after)) >= 199, `only from the last saved point after: ${Math.min(...xs(after))}`);
  pen.up(null);
  assert.equal(context.session.committed.length, 2, 'the add, and the append of what came after');
  assert.equal(context.session.committed[0].operations[0].brush, 'highlighter');
});

test('a saved stroke that turns out a shape is replaced by it, in the same undo step', () => {
  const context = toolContext({ settings: { shapes: true } });
  const timer = manualTimer();
  const pen = new PenTool(context, { timers: timer });
  pen.down(at(0, 0));
  pen.move(Array.from({ length: 15 }, (_, i) => at(i * 10, (i % 3) - 1)));
  timer.tick();
  const id = strokeId(context.session.committed[0].id, 0);
  pen.move(Array.from({ length: 15 }, (_, i) => at(150 + i * 10, (i % 3) - 1)));
  pen.up(at(300, 0));
  assert.equal(pen.lastShape, 'line');
  const last = context.session.committed.at(-1);
  assert.deepEqual(last.operations[0], { op: 'set', stroke: id, attribute: 'deleted', value: true });
  assert.equal(last.operations[1].points.length, 2, 'the clean line');
  const line = strokeId(last.id, 1);
  assert.equal(context.session.board.stroke(id), null, 'the rough ink is gone');
  assert.notEqual(context.session.board.stroke(line), null);
  context.session.undo();
  assert.equal(context.session.board.visibleStrokeCount, 0, 'one undo takes back the shape and its ink');
  assert.equal(context.session.undo(), null);
  context.session.redo();
  assert.equal(context.session.board.visibleStrokeCount, 1);
  assert.notEqual(context.session.board.stroke(line), null);
});

test('a stroke cancelled after it was partly saved is withdrawn, and redo does not bring it back', () => {
  const context = toolContext();
  const timer = manualTimer();
  const pen = new PenTool(context, { timers: timer });
  context.session.commit([add(line(3, { y: 500 }))]);
  pen.down(at(0, 0));
  pen.move([at(50, 50), at(90, 60)]);
  timer.tick();
  const id = strokeId(context.session.committed[1].id, 0);
  assert.notEqual(context.session.board.stroke(id), null);
  pen.move([at(120, 60)]);
  pen.cancel();
  assert.equal(timer.callback, null);
  assert.equal(context.session.board.stroke(id), null, 'the saved part is taken back');
  assert.equal(context.session.board.visibleStrokeCount, 1, 'the earlier stroke stays');
  assert.equal(context.session.redo(), null, 'nothing to redo');
  context.session.undo();
  assert.equal(context.session.board.visibleStrokeCount, 0, 'undo reaches the step before');
});

test('a pen-up with nothing drawn since the last save commits nothing more', () => {
  const context = toolContext();
  const timer = manualTimer();
  const pen = new PenTool(context, { timers: timer });
  pen.down(at(0, 0));
  pen.move([at(5, 0), at(10, 0)]);
  timer.tick();
  pen.up(null);
  pen.down(at(10, 0));
  pen.move([at(15, 0)]);
  pen.up(null);
  assert.deepEqual(
    context.session.committed.map((change) => change.operations[0].op),
    ['addStroke', 'addStroke'],
    'the first stroke is its save alone; the second, never saved, is one add at pen-up',
  );
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
