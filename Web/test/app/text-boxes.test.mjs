// Text boxes on the page, with a fake font (every character half an em wide): their layout and bounds
// (js/app/text-layout.js), where points and erasers land on them (text-hits.js), and how the scene, the
// select and lasso tools, the erasers and the text tool take them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { boxHits, elementBounds, lassoHits, pointHit, selectionBounds } from '../../js/app/selecting.js';
import { eraseOperations, partialCuts, strokeHits } from '../../js/app/erasing.js';
import { boxAt, boxContains, boxInside, boxTouched, caretAt } from '../../js/app/text-hits.js';
import { estimatedRect, layoutRect, textLines } from '../../js/app/text-layout.js';
import { TextTool } from '../../js/app/tools/text.js';
import { paintStrokes } from '../../js/app/stroke-painter.js';
import { strokeId } from '../../js/model/ids.js';
import { add, at, line, recordingContext, toolContext } from './support.mjs';

/** Half an em a character. */
const measure = (text, size) => [...text].length * size * 0.5;

/** A box of `text` at `corner`, size 20, as one change; its id. */
function addBox(session, text, corner = [100, 100], size = 20) {
  const next = session.nextChange;
  const id = strokeId(next, 0);
  const operations = [{ op: 'addText', colour: 0x1971c2ff, size, at: corner }];
  if (text !== '') operations.push({ op: 'insertText', box: id, after: null, text });
  session.commit(operations);
  return id;
}

function setup() {
  const context = toolContext();
  context.scene = new Scene(context.session.board, { measure });
  const scene = context.scene;
  context.session.addEventListener('change', (event) => scene.update(event.detail.delta));
  return { context, session: context.session, scene };
}

test('lines split at newlines, as Swift splits them', () => {
  assert.deepEqual(textLines('a\nb\n'), ['a', 'b', '']);
  assert.deepEqual(textLines(''), ['']);
  assert.deepEqual(textLines('a\r\nb'), ['a\r\nb'], 'CR LF is one character to Swift: no split');
});

test('a box is as wide as its widest line and 1.25 em a line high; Swift estimates the width', () => {
  const box = { text: 'ab\nabcd\n', width: 20, points: [[10, 5]], transform: [1, 0, 0, 1, 0, 0] };
  assert.deepEqual(layoutRect(box, measure), { minX: 10, minY: 5, maxX: 50, maxY: 80 });
  assert.deepEqual(estimatedRect(box), { minX: 10, minY: 5, maxX: 10 + 4 * 20 * 0.62, maxY: 80 });
  assert.deepEqual(estimatedRect({ ...box, text: '' }), { minX: 10, minY: 5, maxX: 10, maxY: 30 });
  // The bounds the page selects by: the measured box after the transform (a quarter turn about the origin).
  assert.deepEqual(elementBounds({ ...box, transform: [0, 1, -1, 0, 0, 0] }, measure), { minX: -80, minY: 10, maxX: -5, maxY: 50 });
  assert.deepEqual(selectionBounds([box, { points: [[0, 0], [10, 0]], width: 2, transform: [1, 0, 0, 1, 0, 0], pressures: null }], measure), {
    minX: -1, minY: -1, maxX: 50, maxY: 80,
  });
});

test('a point is in a box inside its corners, or near its edge', () => {
  const corners = [[0, 0], [100, 0], [100, 20], [0, 20]];
  assert.ok(boxContains(corners, [50, 10]));
  assert.ok(!boxContains(corners, [50, 25]));
  assert.ok(boxContains(corners, [50, 25], 6));
  assert.ok(boxContains([[0, 0], [0, 100], [-20, 100], [-20, 0]], [-10, 50]), 'turned');
  // The stroke eraser: a path that crosses the box, or passes within the radius, touches it.
  assert.ok(boxTouched(corners, [[50, -50], [50, 50]], 1));
  assert.ok(boxTouched(corners, [[-50, 30], [150, 30]], 11));
  assert.ok(!boxTouched(corners, [[-50, 30], [150, 30]], 9));
  assert.ok(boxTouched(corners, [[10, 10]], 0), 'a tap inside');
  // Selection shapes: every corner inside, or (the lasso) the middle.
  const inside = ([x, y]) => x >= -1 && x <= 60 && y >= -1 && y <= 30;
  assert.ok(!boxInside(corners, inside));
  assert.ok(boxInside(corners, inside, { centre: true }));
});

test('the caret goes between the characters nearest the click, on its line', () => {
  const box = { text: 'abcd\nxy', width: 20, points: [[100, 100]], transform: [1, 0, 0, 1, 0, 0] };
  // Characters are 10 wide: a click at x 124 is nearest the boundary at 120 (after "b").
  assert.equal(caretAt(box, [124, 110], measure), 2);
  assert.equal(caretAt(box, [126, 110], measure), 3);
  assert.equal(caretAt(box, [50, 110], measure), 0);
  assert.equal(caretAt(box, [500, 110], measure), 4, 'past the end: the end of the line');
  assert.equal(caretAt(box, [111, 130], measure), 6, 'the second line: after "x"');
  assert.equal(caretAt(box, [111, 900], measure), 6, 'below: the last line');
  // Moved and doubled: the click is undone through the transform.
  assert.equal(caretAt({ ...box, transform: [2, 0, 0, 2, 10, 0] }, [2 * 124 + 10, 220], measure), 2);
});

test('the scene knows a box by its lines: bounds for repaints, and the tiles leave out the one being edited', () => {
  const { session, scene } = setup();
  const id = addBox(session, 'Hello');
  const record = scene.stroke(id);
  assert.equal(record.text, 'Hello');
  assert.deepEqual(record.layout, { minX: 100, minY: 100, maxX: 150, maxY: 125 });
  assert.ok(record.bounds.minX < 100 && record.bounds.maxX > 150 && record.bounds.maxY > 125, 'grown for glyphs past the line box');
  assert.deepEqual(scene.query(record.bounds).map((s) => s.id), [id]);
  // Typing grows the box: the old and new bounds are repainted.
  const next = session.board.insertTextOperation(id, 5, ' world');
  const before = record.bounds;
  const delta = session.board.apply(session.author.makeChange(session.board, [next]));
  const change = scene.update(delta);
  assert.deepEqual(change.dirty, [before, scene.stroke(id).bounds]);
  assert.equal(scene.stroke(id).layout.maxX, 210);
  // While edited, the tiles leave it out; its area is repainted either way.
  assert.deepEqual(scene.setEditing(id), [scene.stroke(id).bounds]);
  assert.equal(scene.editing, id);
  assert.deepEqual(scene.query(scene.stroke(id).bounds), []);
  assert.equal(scene.near(scene.stroke(id).bounds).length, 1, 'hit tests still find it');
  assert.deepEqual(scene.setEditing(null), [scene.stroke(id).bounds]);
  assert.deepEqual(scene.query(scene.stroke(id).bounds).map((s) => s.id), [id]);
});

test('boxes are painted among the strokes, in their stacking order, under their transform', () => {
  const { session, scene } = setup();
  session.commit([add(line(3))]);
  const id = addBox(session, 'one\n\nthree');
  session.commit([{ op: 'set', stroke: id, attribute: 'transform', value: [1, 0, 0, 1, 5, 6] }]);
  addBox(session, '', [0, 0]);
  const ctx = recordingContext();
  paintStrokes(ctx, scene.sort([...scene.strokes()]), () => '#000');
  const calls = ctx.calls.map((call) => call[0]);
  assert.ok(calls.indexOf('stroke') < calls.indexOf('fillText'), 'the stroke below, the box above');
  const texts = ctx.calls.filter((call) => call[0] === 'fillText');
  assert.deepEqual(texts, [['fillText', 'one', 100, 120], ['fillText', 'three', 100, 170]], 'no empty line; an empty box draws nothing');
  assert.deepEqual(ctx.calls.find((call) => call[0] === 'transform'), ['transform', 1, 0, 0, 1, 5, 6]);
  assert.ok(ctx.calls.some((call) => call[0] === '=font' && call[1] === '20px "Inkwell Sans", Helvetica, Arial, sans-serif'));
});

test('a click picks a box, a box dragged around it or a loop around it takes it; empty boxes are never picked', () => {
  const { session, scene } = setup();
  const id = addBox(session, 'Hello');
  const empty = addBox(session, '', [300, 300]);
  assert.equal(pointHit(scene, [120, 110], 1), id);
  assert.equal(pointHit(scene, [120, 140], 1), null);
  assert.equal(pointHit(scene, [300, 310], 5), null, 'nothing to click on an empty box');
  assert.deepEqual(boxHits(scene, { minX: 90, minY: 90, maxX: 160, maxY: 130 }), [id]);
  assert.deepEqual(boxHits(scene, { minX: 90, minY: 90, maxX: 140, maxY: 130 }), [], 'half of it is not enough');
  assert.deepEqual(boxHits(scene, { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }), [id]);
  assert.deepEqual(lassoHits(scene, [[110, 95], [140, 95], [140, 130], [110, 130]]), [id], 'a loop around its middle');
  assert.deepEqual(lassoHits(scene, [[0, 0], [90, 0], [90, 90], [0, 90]]), []);
  assert.equal(boxAt(scene, [120, 110]), id);
  assert.equal(boxAt(scene, [300, 310], 5), null);
  assert.ok(empty);
});

test('the partial eraser passes over boxes; the stroke eraser takes a box its circle touches', () => {
  const { session, scene } = setup();
  const id = addBox(session, 'Hello');
  const { cuts } = partialCuts(scene, [[80, 112], [200, 112]], 10);
  assert.equal(cuts.size, 0);
  assert.deepEqual(eraseOperations(new Map([[id, [[0, 0]]]]), session.board), [], 'no erase is aimed at a box');
  assert.deepEqual(strokeHits(scene, [[80, 112], [200, 112]], 4), [id]);
  assert.deepEqual(strokeHits(scene, [[80, 140], [200, 140]], 16), [id], 'within the radius of its edge (15 below it)');
  assert.deepEqual(strokeHits(scene, [[80, 140], [200, 140]], 14), []);
});

test('the text tool edits the box clicked, or opens a new one where it is clicked', () => {
  const { context, session } = setup();
  const id = addBox(session, 'Hello');
  const calls = [];
  const editor = {
    active: false,
    start: (box) => calls.push(['start', box]),
    edit: (box, caret) => calls.push(['edit', box, caret]),
    finish: () => calls.push(['finish']),
  };
  context.settings.textSize = 36;
  context.settings.colour = 0xe03131ff;
  const tool = new TextTool(context, editor);
  assert.equal(tool.cursor, 'text');
  tool.down(at(131, 110));
  tool.up(at(131, 110));
  assert.deepEqual(calls.pop(), ['edit', id, 3], 'the caret where it was clicked');
  tool.down(at(400, 400));
  assert.deepEqual(calls.pop(), ['start', { at: [400, 400 - 36 * 1.25 / 2], size: 36, colour: 0xe03131ff }], 'the first line around the press');
  editor.active = true;
  tool.down(at(400, 400));
  assert.deepEqual(calls.pop(), ['finish'], 'a press on empty board ends the editing first');
  tool.cancel();
  assert.deepEqual(calls, [], 'a lost pointer leaves the editor as it is');
});
