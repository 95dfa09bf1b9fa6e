// Strokes on the clipboard (js/app/clipboard.js): what a copy writes, what a paste accepts, where it lands.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COPY_OFFSET, FORMAT, clipboardPayload, pasteOffset, readClipboard } from '../../js/app/clipboard.js';
import { copyOperations } from '../../js/model/selection-edits.js';
import { Board } from '../../js/model/board.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line } from './support.mjs';

const good = { colour: 0x1971c2ff, width: 3, points: [[0, 0], [10, 0], [20, 5]], pressures: null, pieces: [[0, 0.5], [1, 2]], transform: [1, 0, 0, 1, 5, 5] };
const json = (strokes) => JSON.stringify({ inkwell: FORMAT, strokes });

test('a copy writes the strokes as JSON and as SVG, and a paste reads them back', () => {
  const session = new FakeSession();
  const id = strokeId(session.commit([add(line(4), { colour: 0xe03131ff, width: 5, pressures: [0.5, 0.25, 1, 0.75] })]).id, 0);
  session.commit([{ op: 'erase', stroke: id, intervals: [[1, 2]] }, { op: 'set', stroke: id, attribute: 'transform', value: [0, 1, -1, 0, 3, 4] }]);
  const stroke = session.board.stroke(id);
  const { json: text, svg } = clipboardPayload([stroke]);
  assert.deepEqual(JSON.parse(text), {
    inkwell: 1,
    strokes: [{ colour: 0xe03131ff, width: 5, points: line(4), pressures: [0.5, 0.25, 1, 0.75], pieces: [[0, 1], [2, 3]], transform: [0, 1, -1, 0, 3, 4] }],
  });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /transform="matrix\(0 1 -1 0 3 4\)"/);
  const [read] = readClipboard(text);
  assert.deepEqual(read, JSON.parse(text).strokes[0]);
});

test('hostile or foreign text pastes nothing, and malformed strokes are dropped one by one', () => {
  for (const text of [null, '', 'hello', '{"inkwell": 2, "strokes": []}', '[1, 2]', '{"inkwell": 1, "strokes": {}}', 'x'.repeat(40 * 1024 * 1024)]) {
    assert.deepEqual(readClipboard(text), [], String(text).slice(0, 40));
  }
  const bad = [
    { ...good, colour: -1 },
    { ...good, colour: 2 ** 32 },
    { ...good, colour: 1.5 },
    { ...good, width: 0 },
    { ...good, width: 1e6 },
    { ...good, points: [] },
    { ...good, points: [[0, 0], [1e10, 0], [1, 1]] },
    { ...good, points: [[0, 0], ['1', 0], [1, 1]] },
    { ...good, points: [[0, 0, 0], [1, 0], [1, 1]] },
    { ...good, pressures: [0.5] },
    { ...good, pressures: [0.5, 2, 0.5] },
    { ...good, transform: [1, 0, 0, 1, 0] },
    { ...good, transform: [1, 0, 0, 1, 0, null] },
    { ...good, pieces: [] },
    { ...good, pieces: [[3, 9]] },
    { ...good, pieces: [[0, 'a']] },
    { ...good, pieces: 'all' },
    null,
    7,
  ];
  // JSON has no NaN or Infinity: those arrive as null, which is refused above.
  assert.deepEqual(readClipboard(json([...bad, good])), [good]);
});

test('pieces are clipped to the stroke and merged; a dot is whole', () => {
  const [clipped] = readClipboard(json([{ ...good, pieces: [[-1, 0.5], [0.25, 1], [1.5, 7]] }]));
  assert.deepEqual(clipped.pieces, [[0, 1], [1.5, 2]]);
  const [dot] = readClipboard(json([{ ...good, points: [[4, 4]], pressures: null, pieces: [[0, 0]] }]));
  assert.deepEqual(dot.pieces, [[0, 0]]);
});

test('a pasted dot shows', () => {
  const board = new Board('main');
  const session = new FakeSession(board);
  const id = strokeId(session.commit([add([[5, 5]], { width: 8 })]).id, 0);
  const [dot] = readClipboard(clipboardPayload([board.stroke(id)]).json);
  assert.deepEqual(dot.pieces, [[0, 0]], 'a visible dot’s pieces');
  const next = session.nextChange;
  session.commit(copyOperations([dot], [COPY_OFFSET, 0], (i) => strokeId(next, i), board.strokes()));
  assert.equal(board.visibleStrokeCount, 2);
  assert.deepEqual(board.stroke(strokeId(next, 0)).transform, [1, 0, 0, 1, 16, 0]);
});

test('a paste lands next to where it came from while that is in view, else in the middle of the view', () => {
  const strokes = readClipboard(json([{ ...good, transform: [1, 0, 0, 1, 0, 0], pieces: [[0, 2]] }])); // bounds -1.5…21.5 × -1.5…6.5
  const view = { minX: -100, minY: -100, maxX: 700, maxY: 500 };
  assert.deepEqual(pasteOffset(strokes, view, 1), [16, 16]);
  assert.deepEqual(pasteOffset(strokes, view, 3), [48, 48]);
  const elsewhere = { minX: 1000, minY: 1000, maxX: 1800, maxY: 1600 };
  assert.deepEqual(pasteOffset(strokes, elsewhere, 1), [1400 - 10, 1300 - 2.5]);
  assert.deepEqual(pasteOffset([], view, 1), [0, 0]);
});

test('a text box goes on the clipboard with its text, and only as a box can be', () => {
  const session = new FakeSession();
  const id = strokeId(session.nextChange, 0);
  session.commit([{ op: 'addText', colour: 0x1971c2ff, size: 20, at: [5, 6] }, { op: 'insertText', box: id, after: null, text: 'Hi' }]);
  const { json: text } = clipboardPayload([session.board.stroke(id)]);
  const [read] = readClipboard(text);
  assert.deepEqual(read, { colour: 0x1971c2ff, width: 20, points: [[5, 6]], pressures: null, pieces: [[0, 0]], transform: [1, 0, 0, 1, 0, 0], text: 'Hi' });
  const box = { ...read };
  for (const wrong of [{ text: 3 }, { points: [[0, 0], [1, 1]], pieces: [[0, 1]] }, { text: 'x'.repeat(100_001) }]) {
    assert.deepEqual(readClipboard(json([{ ...box, ...wrong }])), [], JSON.stringify(wrong).slice(0, 60));
  }
  assert.deepEqual(readClipboard(json([{ ...box, text: '' }]))[0].text, '', 'an empty box is still a box');
});
