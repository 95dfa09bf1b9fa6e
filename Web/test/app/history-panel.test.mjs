// What the history panel says about a place in the timeline (js/app/history-panel.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryPanel, describeChange, historyLabel } from '../../js/app/history-panel.js';

const change = (seq, wall, operations) => ({ id: { replica: 'a'.repeat(32), seq }, stamp: { wall, counter: 0 }, board: 'main', operations });

test('a change is told by what shows most', () => {
  assert.equal(describeChange(change(1, 0, [{ op: 'addStroke' }])), 'drew');
  assert.equal(describeChange(change(1, 0, [{ op: 'clear' }, { op: 'addStroke' }])), 'cleared the board');
  assert.equal(describeChange(change(1, 0, [{ op: 'addStroke' }, { op: 'erase' }])), 'drew and erased');
  assert.equal(describeChange(change(1, 0, [{ op: 'set', attribute: 'transform' }])), 'moved');
  assert.equal(describeChange(change(1, 0, [{ op: 'set', attribute: 'deleted' }])), 'deleted');
  assert.equal(describeChange(change(1, 0, [{ op: 'undo' }])), 'undid');
  assert.equal(describeChange(change(1, 0, [{ op: 'settle' }])), 'settled earlier changes');
  assert.equal(describeChange(change(1, 0, [{ op: 'mystery' }])), 'changed the board');
  assert.equal(describeChange(change(1, 0, [{ op: 'addText' }, { op: 'insertText' }])), 'added text');
  assert.equal(describeChange(change(1, 0, [{ op: 'insertText' }])), 'typed');
  assert.equal(describeChange(change(1, 0, [{ op: 'deleteText' }, { op: 'insertText' }])), 'typed', 'typing over a selection');
  assert.equal(describeChange(change(1, 0, [{ op: 'deleteText' }])), 'deleted text');
  assert.equal(describeChange({}), 'changed the board');
});

test('the label names the place, the person and the time', () => {
  const history = [change(1, 1000, [{ op: 'addStroke' }]), change(2, 2000, [{ op: 'erase' }])];
  const who = () => 'Ada';
  const when = (wall) => `t${wall}`;
  assert.equal(historyLabel([], 0, who, when), 'No changes yet');
  assert.equal(historyLabel(history, 0, who, when), 'Before the first change held here (t1000)');
  assert.equal(historyLabel(history, 1, who, when), 'Change 1 of 2 · Ada drew · t1000');
  assert.equal(historyLabel(history, 2, who, when), 'Now: change 2 of 2 · Ada erased · t2000');
});

/** An element with what the panel touches: listeners, attributes, a value. */
class FakeElement {
  listeners = new Map();
  attributes = new Map();
  hidden = true;
  value = '';
  max = '';
  disabled = false;
  textContent = '';
  addEventListener(type, listener) {
    this.listeners.set(type, listener);
  }
  setAttribute(name, value) {
    this.attributes.set(name, value);
  }
  focus() {}
  fire(type) {
    this.listeners.get(type)?.();
  }
}

/** The panel over a history of `count` strokes, each its own change, with the board shows recorded. */
function panelOver(count) {
  const replica = 'a'.repeat(32);
  const history = Array.from({ length: count }, (_, i) =>
    change(i + 1, 1000 + i, [{ op: 'addStroke', colour: 0x000000ff, width: 2, points: [[i, 0], [i, 10]], pressures: null }]),
  );
  const parts = { slider: new FakeElement(), label: new FakeElement(), restore: new FakeElement(), close: new FakeElement() };
  const root = new FakeElement();
  root.querySelector = (selector) =>
    ({ 'input[type="range"]': parts.slider, '.history-label': parts.label, '[data-testid="history-restore"]': parts.restore, '[data-testid="history-close"]': parts.close })[selector];
  const shows = [];
  const frames = [];
  const session = { history: () => history, board: { board: 'main' }, nextChange: { replica, seq: count + 1 } };
  const panel = new HistoryPanel({
    root,
    session,
    show: (past, delta) => shows.push({ past, delta, strokes: past?.visibleStrokeCount ?? null }),
    commit: () => [],
    who: () => 'Ada',
    notify: () => {},
    undoKey: 'Ctrl+Z',
    frame: (callback) => frames.push(callback),
  });
  const slide = (value) => {
    parts.slider.value = String(value);
    parts.slider.fire('input');
  };
  const runFrames = () => frames.splice(0).forEach((callback) => callback());
  return { panel, shows, slide, runFrames };
}

test('moving forward applies only the changes passed over; moving back builds the past again', () => {
  const { panel, shows } = panelOver(10);
  panel.openPanel();
  assert.deepEqual(shows.at(-1), { past: null, delta: undefined, strokes: null }, 'opened at the present');
  panel.moveTo(3);
  const built = shows.at(-1);
  assert.equal(built.strokes, 3);
  assert.equal(built.delta, undefined, 'a new board: everything repaints');
  panel.moveTo(7);
  assert.equal(shows.at(-1).past, built.past, 'the same board, brought forward');
  assert.equal(shows.at(-1).strokes, 7);
  assert.equal(shows.at(-1).delta.strokes.size, 4, 'only the four strokes drawn in between repaint');
  panel.moveTo(5);
  assert.notEqual(shows.at(-1).past, built.past, 'back: built again');
  assert.equal(shows.at(-1).strokes, 5);
  panel.moveTo(10);
  assert.equal(shows.at(-1).past, null, 'the present is the live board');
});

test('the slider is followed once a frame, to its latest place, and not after the panel closed', () => {
  const { panel, shows, slide, runFrames } = panelOver(10);
  panel.openPanel();
  const before = shows.length;
  slide(2);
  slide(6);
  slide(4);
  assert.equal(shows.length, before, 'nothing until the frame');
  runFrames();
  assert.equal(shows.length, before + 1);
  assert.equal(shows.at(-1).strokes, 4);
  slide(1);
  panel.close();
  const closed = shows.length;
  runFrames();
  assert.equal(shows.length, closed, 'a move pending at closing is dropped');
});
