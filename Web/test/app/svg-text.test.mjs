// Text boxes in the SVG export (js/app/svg-text.js, export-svg.js), after Swift's
// Tests/InkwellBoardTests/TextBoxTests.swift; the text browser test compares the page's export with
// `inkwell export` byte for byte.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardSVG, strokeBounds } from '../../js/app/export-svg.js';
import { escapeText, textElement } from '../../js/app/svg-text.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession } from './support.mjs';

const BLUE = 0x1971c2ff;

function box(session, text, at = [5, 6], { size = 20, colour = BLUE } = {}) {
  const id = strokeId(session.nextChange, 0);
  const operations = [{ op: 'addText', colour, size, at }];
  if (text !== '') operations.push({ op: 'insertText', box: id, after: null, text });
  session.commit(operations);
  return id;
}

test('each line is a tspan on its baseline, markup escaped; an empty box writes nothing', () => {
  const session = new FakeSession();
  const id = box(session, 'a < b & c\n\nsecond \u0001line');
  box(session, '', [50, 60]);
  const svg = boardSVG(session.board.strokes());
  assert.equal(svg.match(/<text /g).length, 1, 'an empty box exports nothing');
  assert.ok(
    svg.includes(
      `<text data-stroke="${id}" font-family="Inkwell Sans, Helvetica, Arial, sans-serif" font-size="20" xml:space="preserve" fill="#1971c2">` +
        '<tspan x="5" y="26">a &lt; b &amp; c</tspan><tspan x="5" y="76">second line</tspan></text>\n',
    ),
    svg,
  );
});

test('the drawing is framed by Swift’s estimate of each box, empty ones too', () => {
  const session = new FakeSession();
  box(session, 'abcd\nx', [10, 20]);
  box(session, '', [-40, 100]);
  const svg = boardSVG(session.board.strokes());
  // Widest line 4 × 20 × 0.62 = 49.6 wide; two lines 50 high. The empty box: no width, one line high.
  // minX −40 − 16, minY 20 − 16; maxX 10 + 49.6 + 16, maxY 100 + 25 + 16.
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="-56 4 131.6 137" width="131.6" height="137">\n'), svg);
});

test('a box keeps its transform and its colour’s alpha', () => {
  const session = new FakeSession();
  const id = box(session, 'Hi', [0, 0], { size: 12.5, colour: 0xe0313180 });
  session.commit([{ op: 'set', stroke: id, attribute: 'transform', value: [0, 1, -1, 0, 100, 0] }]);
  const [stroke] = session.board.strokes();
  assert.equal(
    textElement(stroke, String, ' fill="#e03131"', ' transform="t"'),
    `<text data-stroke="${id}" font-family="Inkwell Sans, Helvetica, Arial, sans-serif" font-size="12.5" xml:space="preserve" fill="#e03131" transform="t"><tspan x="0" y="12.5">Hi</tspan></text>\n`,
  );
  const svg = boardSVG([stroke]);
  assert.ok(svg.includes('fill="#e03131" fill-opacity="0.5" transform="matrix(0 1 -1 0 100 0)">'), svg);
  // Swift's bounds: the estimated box's corners, turned.
  assert.deepEqual(strokeBounds(stroke), { minX: 100 - 12.5 * 1.25, minY: 0, maxX: 100, maxY: 2 * 12.5 * 0.62 });
});

test('text is escaped as Swift escapes it', () => {
  assert.equal(escapeText('<&>'), '&lt;&amp;&gt;');
  assert.equal(escapeText('a\tb'), 'a&#9;b');
  assert.equal(escapeText('a\u0000\u001f\r\ufffe\uffffb'), 'ab', 'what XML cannot hold is dropped');
  assert.equal(escapeText('"quotes" \'kept\' é 😀'), '"quotes" \'kept\' é 😀');
});
