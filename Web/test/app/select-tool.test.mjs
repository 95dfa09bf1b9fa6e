// The select and lasso tools driven as the pointer drives them (js/app/tools/select.js, lasso.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SelectTool } from '../../js/app/tools/select.js';
import { LassoTool } from '../../js/app/tools/lasso.js';
import { strokeId } from '../../js/model/ids.js';
import { add, at, line, recordingContext, toolContext } from './support.mjs';

/** A board with three strokes: a at y = 0, b at y = 100 (x 0…100), c far away. */
function setup() {
  const context = toolContext();
  const draw = (points) => strokeId(context.session.commit([add(points)]).id, 0);
  const a = draw(line(11));
  const b = draw(line(11, { y: 100 }));
  const c = draw(line(3, { x: 600, y: 400 }));
  return { context, a, b, c, tool: new SelectTool(context) };
}

/** A press, moves and a release. */
function drag(tool, points) {
  tool.down(points[0]);
  if (points.length > 2) tool.move(points.slice(1, -1));
  tool.up(points[points.length - 1]);
}

test('a click picks a stroke, Shift+click adds and takes out, a click on empty board lets go', () => {
  const { context, a, b, tool } = setup();
  drag(tool, [at(50, 2), at(50, 2)]);
  assert.deepEqual(context.selection.ids, [a]);
  drag(tool, [at(50, 101, { shift: true }), at(50, 101, { shift: true })]);
  assert.deepEqual(context.selection.ids, [a, b].sort());
  drag(tool, [at(50, 1, { shift: true }), at(50, 1, { shift: true })]);
  assert.deepEqual(context.selection.ids, [b]);
  drag(tool, [at(300, 300), at(300, 300)]);
  assert.deepEqual(context.selection.ids, []);
  assert.equal(context.session.committed.length, 3, 'picking commits nothing');
});

test('a box dragged on empty board picks what lies wholly inside it; Shift adds', () => {
  const { context, a, b, c, tool } = setup();
  drag(tool, [at(-10, -10), at(50, 50), at(120, 50)]);
  assert.deepEqual(context.selection.ids, [a]);
  drag(tool, [at(-10, 50, { shift: true }), at(120, 120, { shift: true })]);
  assert.deepEqual(context.selection.ids, [a, b].sort());
  drag(tool, [at(-30, -30), at(90, 120)]);
  assert.deepEqual(context.selection.ids, [], 'strokes that stick out are left out');
  drag(tool, [at(500, 300), at(700, 500)]);
  assert.deepEqual(context.selection.ids, [c]);
});

test('the box and the loop show on the overlay while they are dragged', () => {
  const { context, tool } = setup();
  tool.down(at(-10, -10));
  tool.move([at(50, 50)]);
  const ctx = recordingContext();
  tool.layer(ctx, context.renderer);
  assert.ok(ctx.calls.some((call) => call[0] === 'setLineDash' && call[1].length === 2), 'a dashed marquee');
  tool.cancel();
  assert.equal(tool.active, false);
});

test('dragging the selection moves it live and commits one change at pointer-up', () => {
  const { context, a, b, tool } = setup();
  context.selection.set([a, b]);
  const committed = context.session.committed.length;
  tool.down(at(50, 50)); // inside the box, on no stroke
  tool.move([at(51, 50)]);
  assert.deepEqual(context.scene.stroke(a).shown, [[0, 10]], 'a move under 3 px is still a click');
  tool.move([at(60, 50), at(80, 70)]);
  assert.deepEqual(context.scene.stroke(a).shown, [], 'the board hides what the overlay shows moved');
  const ctx = recordingContext();
  tool.layer(ctx, context.renderer);
  assert.ok(ctx.calls.some((call) => call[0] === 'transform' && call[5] === 30 && call[6] === 20), 'painted moved by (30, 20)');
  assert.equal(context.session.committed.length, committed, 'nothing committed while dragging');
  tool.up(at(90, 80));
  assert.equal(context.session.committed.length, committed + 1, 'one change');
  assert.deepEqual(context.session.board.stroke(a).transform, [1, 0, 0, 1, 40, 30]);
  assert.deepEqual(context.session.board.stroke(b).transform, [1, 0, 0, 1, 40, 30]);
  assert.equal(context.renderer.previewClears, 1, 'the preview goes with the change’s delta');
  assert.deepEqual(context.selection.bounds, { minX: 39, minY: 29, maxX: 141, maxY: 131 }, 'the box follows');
  context.session.undo();
  assert.deepEqual(context.session.board.stroke(a).transform, [1, 0, 0, 1, 0, 0], 'one undo puts both back');
  assert.deepEqual(context.session.board.stroke(b).transform, [1, 0, 0, 1, 0, 0]);
});

test('pressing an unselected stroke picks it and drags it alone', () => {
  const { context, a, b, tool } = setup();
  context.selection.set([a]);
  drag(tool, [at(50, 100), at(60, 110), at(70, 120)]);
  assert.deepEqual(context.selection.ids, [b]);
  assert.deepEqual(context.session.board.stroke(b).transform, [1, 0, 0, 1, 20, 20]);
  assert.deepEqual(context.session.board.stroke(a).transform, [1, 0, 0, 1, 0, 0]);
});

test('a corner handle scales about the opposite corner, the top handle rotates', () => {
  const { context, a, tool } = setup();
  context.selection.set([a]); // box -1…101 × -1…1
  drag(tool, [at(101, 1), at(150, 1), at(203, 1)]);
  const [sx, , , sy, tx] = context.session.board.stroke(a).transform;
  assert.ok(Math.abs(sx - 2) < 1e-12 && sy === 1 && Math.abs(tx - 1) < 1e-12, `scaled ×2 about x = −1: ${context.session.board.stroke(a).transform}`);
  context.session.undo();
  context.selection.set([a]);
  const { minY } = context.selection.bounds;
  drag(tool, [at(50, minY - 26), at(80, -20), at(150, 0, { shift: true })]); // a quarter turn, snapped
  const t = context.session.board.stroke(a).transform;
  assert.ok(Math.abs(t[0]) < 1e-12 && Math.abs(t[1] - 1) < 1e-12, `turned 90°: ${t}`);
});

test('Escape in a drag puts the strokes back and commits nothing', () => {
  const { context, a, tool } = setup();
  context.selection.set([a]);
  const committed = context.session.committed.length;
  tool.down(at(50, 0));
  tool.move([at(90, 40)]);
  tool.cancel();
  assert.deepEqual(context.scene.stroke(a).shown, [[0, 10]]);
  assert.equal(context.session.committed.length, committed);
  assert.deepEqual(context.selection.ids, [a]);
});

test('the hover cursor says what a press would take', () => {
  const { context, a, tool } = setup();
  let told = 0;
  context.cursorChanged = () => told++;
  context.selection.set([a]);
  tool.hoverAt(at(101, 1));
  assert.equal(tool.cursor, 'nwse-resize');
  tool.hoverAt(at(50, 0));
  assert.equal(tool.cursor, 'move');
  tool.hoverAt(at(50, 300));
  assert.equal(tool.cursor, 'default');
  assert.equal(told, 3);
});

test('the lasso picks what its loop goes around, and drags a selection as the select tool does', () => {
  const { context, a, b, c } = setup();
  const lasso = new LassoTool(context);
  assert.equal(lasso.cursor, 'crosshair');
  const loop = [at(-20, -20), at(120, -20), at(120, 120), at(-20, 120), at(-20, -19)];
  drag(lasso, loop);
  assert.deepEqual(context.selection.ids, [a, b].sort());
  drag(lasso, [at(500, 300), at(700, 300, { shift: true }), at(700, 500), at(500, 500)].map((p) => ({ ...p, shift: true })));
  assert.deepEqual(context.selection.ids, [a, b, c].sort(), 'Shift adds');
  drag(lasso, [at(700, 0), at(800, 0), at(800, 100)]);
  assert.deepEqual(context.selection.ids, [], 'a loop around nothing lets go');
  context.selection.set([c]);
  drag(lasso, [at(610, 400), at(630, 400), at(650, 400)]);
  assert.deepEqual(context.session.board.stroke(c).transform, [1, 0, 0, 1, 40, 0], 'moved, not lassoed');
});
