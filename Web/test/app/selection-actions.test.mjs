// What the toolbar, the keys and the clipboard do to a selection (js/app/selection-actions.js): each edit
// one change, undone in one step.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SelectionActions } from '../../js/app/selection-actions.js';
import { STROKES_TYPE } from '../../js/app/clipboard.js';
import { strokeId } from '../../js/model/ids.js';
import { add, line, toolContext } from './support.mjs';

function setup() {
  const context = toolContext();
  const draw = (points, style) => strokeId(context.session.commit([add(points, style)]).id, 0);
  const a = draw(line(11));
  const b = draw(line(11, { y: 100 }));
  const c = draw([[300, 300]], { width: 8 });
  let picked = 0;
  const actions = new SelectionActions(context, { selectTool: () => picked++ });
  return { context, actions, a, b, c, board: context.session.board, picked: () => picked };
}

/** A clipboard event's data, in memory. */
class Data {
  items = new Map();
  setData(type, value) {
    this.items.set(type, value);
  }
  getData(type) {
    return this.items.get(type) ?? '';
  }
}

test('nothing selected: every action does nothing', () => {
  const { context, actions } = setup();
  const before = context.session.committed.length;
  for (const action of ['selection:delete', 'selection:duplicate', 'selection:front', 'selection:back', 'nudge:left', 'cut']) {
    assert.equal(actions.run(action), true, action);
  }
  assert.equal(actions.recolour(0xff0000ff), false);
  assert.equal(actions.setWidth(9), false);
  assert.equal(actions.copy(new Data()), false);
  assert.equal(context.session.committed.length, before);
  assert.equal(actions.run('zoom:in'), false, 'not a selection action');
});

test('delete takes the selection away in one change; undo brings it back', () => {
  const { context, actions, a, c, board } = setup();
  context.selection.set([a, c]);
  actions.run('selection:delete');
  assert.equal(board.visibleStrokeCount, 1);
  assert.deepEqual(context.selection.ids, []);
  assert.equal(context.session.committed.at(-1).operations.length, 2);
  context.session.undo();
  assert.equal(board.visibleStrokeCount, 3);
});

test('duplicate adds copies 16 px on, in one change, and selects them', () => {
  const { context, actions, a, c, board } = setup();
  context.session.commit([{ op: 'erase', stroke: a, intervals: [[2, 3]] }]);
  context.selection.set([a, c]);
  actions.run('selection:duplicate');
  assert.equal(board.visibleStrokeCount, 5);
  const [copyOfA, copyOfC] = context.selection.ids.map((id) => board.stroke(id));
  assert.deepEqual(copyOfA.points, board.stroke(a).points);
  assert.deepEqual(copyOfA.pieces, [[0, 2], [3, 10]], 'the copy keeps the gap');
  assert.deepEqual(copyOfA.transform, [1, 0, 0, 1, 16, 16]);
  assert.deepEqual(copyOfC.pieces, [[0, 0]], 'a copied dot shows');
  assert.deepEqual(copyOfC.transform, [1, 0, 0, 1, 16, 16]);
  context.session.undo();
  assert.equal(board.visibleStrokeCount, 3);
  assert.deepEqual(context.selection.ids, [], 'undone copies leave the selection');
});

test('a duplicate too large for one change is cut into several: the copies are all selected, one undo', () => {
  const { context, actions, a, b, c, board } = setup();
  context.session.commit([{ op: 'erase', stroke: a, intervals: [[2, 3]] }]);
  context.session.mostPerChange = 2;
  const before = context.session.committed.length;
  context.selection.set([a, b, c]);
  actions.run('selection:duplicate');
  assert.ok(context.session.committed.length - before > 1, 'several changes');
  assert.equal(board.visibleStrokeCount, 6);
  const copies = context.selection.ids.map((id) => board.stroke(id));
  assert.equal(copies.length, 3, 'every copy selected, by its id in the change that added it');
  assert.deepEqual(copies.map((copy) => copy.pieces), [[[0, 2], [3, 10]], [[0, 10]], [[0, 0]]], 'the gap kept across the cut');
  assert.ok(copies.every((copy) => copy.transform[4] === 16 && copy.transform[5] === 16));
  context.session.undo();
  assert.equal(board.visibleStrokeCount, 3, 'one undo takes every part back');
});

test('front and back restack the selection; recolour, width and nudges are one change each', () => {
  const { context, actions, a, b, c, board } = setup();
  context.selection.set([a]);
  actions.run('selection:front');
  assert.deepEqual(board.strokes().map((s) => s.id), [b, c, a]);
  actions.run('selection:back');
  assert.deepEqual(board.strokes().map((s) => s.id), [a, b, c]);
  context.selection.set([a, b]);
  assert.equal(actions.recolour(0xe03131ff), true);
  assert.equal(actions.setWidth(9), true);
  assert.deepEqual([board.stroke(a).colour, board.stroke(b).width, board.stroke(c).colour], [0xe03131ff, 9, 0x000000ff]);
  const before = context.session.committed.length;
  actions.run('nudge:right');
  actions.run('nudge:up:far');
  assert.equal(context.session.committed.length, before + 2);
  assert.deepEqual(board.stroke(a).transform, [1, 0, 0, 1, 1, -10]);
  context.session.undo();
  assert.deepEqual(board.stroke(b).transform, [1, 0, 0, 1, 1, 0], 'one press, one undo');
});

test('select all picks every visible stroke, with a tool that shows it', () => {
  const { context, actions, a, b, c, picked } = setup();
  actions.run('select-all');
  assert.deepEqual(context.selection.ids, [a, b, c].sort());
  assert.equal(picked(), 1);
});

test('copy and paste carry strokes to another board, centred in its view', () => {
  const from = setup();
  from.context.selection.set([from.a, from.c]);
  const data = new Data();
  assert.equal(from.actions.copy(data), true);
  assert.match(data.getData('text/plain'), /^<svg /);
  assert.equal(data.getData('image/svg+xml'), data.getData('text/plain'));
  const to = toolContext();
  to.viewport.panBy(-2000, -1000); // the view: 2000…2800 × 1000…1600
  const actions = new SelectionActions(to);
  assert.equal(actions.paste(data), true);
  assert.equal(to.session.board.visibleStrokeCount, 2);
  assert.equal(to.session.committed.length, 1, 'one change');
  const pasted = to.selection.ids.map((id) => to.session.board.stroke(id));
  assert.deepEqual(pasted.map((s) => s.points), [line(11), [[300, 300]]]);
  // The copied box is −1…304 × −1…304: its centre (151.5, 151.5) goes to the view's (2400, 1300).
  assert.deepEqual(pasted[0].transform, [1, 0, 0, 1, 2248.5, 1148.5]);
  assert.equal(actions.paste(new Data()), false, 'an empty clipboard pastes nothing');
  assert.equal(actions.paste(Object.assign(new Data(), { items: new Map([[STROKES_TYPE, '{"inkwell":1,"strokes":[{"colour":1}]}']]) })), false);
});

test('pasting back where the strokes are in view lands 16 px on each time; cut is copy and delete', () => {
  const { context, actions, a, board } = setup();
  context.selection.set([a]);
  const data = new Data();
  actions.copy(data);
  actions.paste(data);
  assert.deepEqual(board.stroke(context.selection.ids[0]).transform, [1, 0, 0, 1, 16, 16]);
  actions.paste(data);
  assert.deepEqual(board.stroke(context.selection.ids[0]).transform, [1, 0, 0, 1, 32, 32]);
  const count = board.visibleStrokeCount;
  const cut = new Data();
  actions.cut(cut);
  assert.equal(board.visibleStrokeCount, count - 1);
  assert.ok(cut.getData(STROKES_TYPE).startsWith('{"inkwell":1'));
});

test('without a clipboard, the copy kept in the page pastes, but not over something copied since', () => {
  const { context, actions, b, board } = setup();
  context.selection.set([b]);
  actions.run('copy');
  actions.run('paste');
  assert.equal(board.visibleStrokeCount, 4, 'the toolbar path needs no clipboard');
  const other = new Data();
  other.setData('text/plain', 'some text copied elsewhere');
  assert.equal(actions.paste(other), false);
  const dropped = new Data();
  actions.copy(dropped);
  dropped.items.delete(STROKES_TYPE); // a browser that kept the plain text only
  assert.equal(actions.paste(dropped), true);
  assert.equal(board.visibleStrokeCount, 5);
});

test('text boxes are duplicated, copied and pasted with their text, and the copies selected', () => {
  const { context, actions, a, board } = setup();
  const next = context.session.nextChange;
  const box = strokeId(next, 0);
  context.session.commit([
    { op: 'addText', colour: 0x1971c2ff, size: 20, at: [40, 40] },
    { op: 'insertText', box, after: null, text: 'Hello\nthere' },
  ]);
  context.selection.set([a, box]);
  actions.run('selection:duplicate');
  const copies = context.selection.ids.map((id) => board.stroke(id));
  assert.equal(copies.length, 2, 'the stroke’s copy and the box’s are selected');
  const copy = copies.find((stroke) => stroke.text !== undefined);
  assert.equal(copy.text, 'Hello\nthere');
  assert.deepEqual([copy.points, copy.width, copy.transform], [[[40, 40]], 20, [1, 0, 0, 1, 16, 16]]);
  const data = new Data();
  context.selection.set([box]);
  actions.copy(data);
  assert.match(data.getData('text/plain'), /<tspan x="40" y="60">Hello<\/tspan>/, 'the clipboard’s SVG has the text');
  const to = toolContext();
  assert.equal(new SelectionActions(to).paste(data), true);
  const [pasted] = to.selection.ids.map((id) => to.session.board.stroke(id));
  assert.equal(pasted.text, 'Hello\nthere');
});

test('fill paints the selected ink in the current colour at about 35 %; no fill takes it away; undo brings it back', () => {
  const { context, actions, a, b, board } = setup();
  context.settings.colour = 0x1971c2ff;
  context.selection.set([a, b]);
  actions.run('selection:fill');
  assert.equal(context.session.committed.at(-1).operations.length, 2, 'one change');
  assert.deepEqual([board.stroke(a).fill, board.stroke(b).fill], [0x1971c259, 0x1971c259]);
  actions.run('selection:unfill');
  assert.equal(board.stroke(a).fill, undefined);
  context.session.undo();
  assert.equal(board.stroke(a).fill, 0x1971c259);
});

test('copy and paste keep a highlighter and a fill', () => {
  const { context, actions, a, board } = setup();
  const marker = strokeId(context.session.commit([{ ...add(line(4), { colour: 0xffd43b66, width: 16 }), brush: 'highlighter' }]).id, 0);
  context.session.commit([{ op: 'set', stroke: a, attribute: 'fill', value: 0x2f9e4459 }]);
  context.selection.set([a, marker]);
  const data = new Data();
  actions.copy(data);
  actions.paste(data);
  const pasted = context.selection.ids.map((id) => board.stroke(id));
  assert.equal(pasted.length, 2);
  assert.ok(pasted.some((stroke) => stroke.brush === 'highlighter' && stroke.fill === undefined));
  assert.ok(pasted.some((stroke) => stroke.brush === undefined && stroke.fill === 0x2f9e4459));
});
