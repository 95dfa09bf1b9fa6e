// What the history panel says about a place in the timeline (js/app/history-panel.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeChange, historyLabel } from '../../js/app/history-panel.js';

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
