// The SVG export (js/app/export-svg.js), after Tests/InkwellBoardTests/SVGExportTests.swift. The browser
// smoke test also compares the page's export with `inkwell export` byte for byte.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { averagePressure, boardSVG, formatNumber } from '../../js/app/export-svg.js';
import { exportFilename, exportedNotice } from '../../js/app/export.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line } from './support.mjs';

const attributes = (element) => Object.fromEntries([...element.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
const elements = (svg) => [...svg.matchAll(/<(\w+)([^>]*)\/?>/g)].map((m) => ({ name: m[1], attributes: attributes(m[2]) }));

test('exports exactly what is visible, in stacking order', () => {
  const session = new FakeSession();
  const bottom = session.commit([add(line(5), { colour: 0xff000080, width: 4 })]);
  const top = session.commit([add(line(3, { y: 20 }))]);
  const hidden = session.commit([add(line(3, { y: 40 }))]);
  const dot = session.commit([add([[7, 7]])]);
  const id = (change) => strokeId(change.id, 0);
  session.commit([{ op: 'erase', stroke: id(bottom), intervals: [[1, 2.5]] }]);
  session.commit([{ op: 'set', stroke: id(hidden), attribute: 'deleted', value: true }]);
  session.commit([{ op: 'set', stroke: id(top), attribute: 'transform', value: [1, 0, 0, 1, 5, 0] }]);
  session.commit([{ op: 'set', stroke: id(bottom), attribute: 'zOrder', value: 1 }]);
  const drawn = elements(boardSVG(session.board.strokes())).filter((e) => e.attributes['data-stroke'] !== undefined);
  assert.deepEqual(drawn.map((e) => e.attributes['data-stroke']), [id(top), id(dot), id(bottom)]);
  const erased = drawn.at(-1);
  assert.equal(erased.name, 'path');
  assert.equal(erased.attributes.stroke, '#ff0000');
  assert.equal(erased.attributes['stroke-opacity'], '0.5');
  assert.equal(erased.attributes['stroke-width'], '4');
  assert.equal(erased.attributes.d.split('M').length - 1, 2, 'one subpath per visible piece');
  assert.ok(erased.attributes.d.startsWith('M0 0C'));
  assert.ok(erased.attributes.d.includes('M25 0C'), 'the second piece starts where the erase ends');
  assert.equal(drawn[0].attributes.transform, 'matrix(1 0 0 1 5 0)');
  assert.equal(drawn[1].name, 'circle');
  assert.equal(drawn[1].attributes.cx, '7');
  assert.equal(drawn[1].attributes.r, '1');
});

test('an empty board is an empty but valid document', () => {
  assert.equal(
    boardSVG([]),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-16 -16 32 32" width="32" height="32">\n' +
      '<g fill="none" stroke-linecap="round" stroke-linejoin="round">\n</g>\n</svg>\n',
  );
});

test('the background is optional; bounds are grown by half the width and the margin', () => {
  const session = new FakeSession();
  session.commit([add(line(2))]);
  const svg = boardSVG(session.board.strokes(), { background: 0xffffffff });
  assert.deepEqual(elements(svg).map((e) => e.name), ['svg', 'rect', 'g', 'path']);
  assert.equal(elements(svg)[0].attributes.viewBox, '-17 -17 44 34');
  assert.equal(elements(svg)[1].attributes.fill, '#ffffff');
});

test('a stroke with pressure is drawn at its mean pressure', () => {
  const session = new FakeSession();
  session.commit([add(line(3), { width: 10, pressures: [0.2, 0.4, 0.6] })]);
  const [path] = elements(boardSVG(session.board.strokes())).filter((e) => e.name === 'path');
  assert.equal(path.attributes['stroke-width'], formatNumber(10 * averagePressure(session.board.strokes()[0].pressures)));
  assert.equal(path.attributes['stroke-width'], '4');
  assert.equal(averagePressure(null), 1);
  assert.equal(averagePressure([Math.fround(0.1), Math.fround(0.2)]), Math.fround(Math.fround(0.1) + Math.fround(0.2)) / 2, 'summed as Float');
});

test('numbers are printf’s %.2f with trailing zeros trimmed, ties to even', () => {
  const cases = [
    [0, '0'], [-0, '0'], [1.5, '1.5'], [2, '2'], [-3.25, '-3.25'], [0.004, '0'], [-0.004, '0'], [0.005, '0.01'],
    [1.125, '1.12'], [1.375, '1.38'], [-1.125, '-1.12'], [2.625, '2.62'], [0.125, '0.12'], [1e9 + 0.125, '1000000000.12'],
    [1 / 3, '0.33'], [123456.789, '123456.79'], [10, '10'], [100.1, '100.1'],
  ];
  for (const [value, text] of cases) assert.equal(formatNumber(value), text, String(value));
  assert.equal(formatNumber(0.5, 0), '0', 'ties to even with no decimals');
  assert.equal(formatNumber(1.5, 0), '2');
});

test('export files are named after the room and the day', () => {
  assert.equal(exportFilename('AbCdEfGhIjKlMnOp', 'svg', new Date(2026, 10, 2)), 'inkwell-AbCdEfGhIjKl-2026-11-02.svg');
});

test('a fill is a closed path through every point before the ink, as Swift writes it', () => {
  // Centripetal Catmull–Rom through (0,0), (30,0), (30,30), gaps equal: the first control is a third of the
  // way along, the inner ones (a·far − b·behind + m·near) / 6 with a = b, m = 6a, the last a third back.
  const session = new FakeSession();
  const change = session.commit([add([[0, 0], [30, 0], [30, 30]])]);
  const id = strokeId(change.id, 0);
  session.commit([{ op: 'set', stroke: id, attribute: 'fill', value: 0x1971c259 }]);
  session.commit([{ op: 'set', stroke: id, attribute: 'transform', value: [1, 0, 0, 1, 5, 0] }]);
  const whole = 'M0 0C10 0 25 -5 30 0C35 5 30 20 30 30';
  const fill = `<path data-stroke="${id}" d="${whole}Z" fill="#1971c2" fill-opacity="0.35" transform="matrix(1 0 0 1 5 0)"/>\n`;
  const ink = (d) => `<path data-stroke="${id}" d="${d}" stroke="#000000" stroke-width="2" transform="matrix(1 0 0 1 5 0)"/>\n`;
  assert.ok(boardSVG(session.board.strokes()).includes(fill + ink(whole)));
  // Erasing cuts the line, not the paint.
  session.commit([{ op: 'erase', stroke: id, intervals: [[1, 2]] }]);
  assert.ok(boardSVG(session.board.strokes()).includes(fill + ink('M0 0C10 0 25 -5 30 0')));
  // No fill: alpha 0.
  session.commit([{ op: 'set', stroke: id, attribute: 'fill', value: 0 }]);
  assert.ok(!boardSVG(session.board.strokes()).includes('Z"'));
});

test('a highlighter goes beneath ink drawn before it, translucent', () => {
  const session = new FakeSession();
  const pen = strokeId(session.commit([add(line(3))]).id, 0);
  const marker = strokeId(session.commit([{ ...add(line(3), { colour: 0xffd43b66, width: 16 }), brush: 'highlighter' }]).id, 0);
  const drawn = elements(boardSVG(session.board.strokes())).filter((e) => e.attributes['data-stroke'] !== undefined);
  assert.deepEqual(drawn.map((e) => e.attributes['data-stroke']), [marker, pen]);
  assert.equal(drawn[0].attributes['stroke-opacity'], '0.4');
  assert.equal(drawn[0].attributes['stroke-width'], '16');
});

test('the notice after exporting a selection names what it held', () => {
  const stroke = { id: 's' };
  const box = { id: 't', text: 'hi' };
  const image = { id: 'i', image: { blob: 'b' }, text: undefined };
  assert.equal(exportedNotice([stroke]), 'Exported a stroke');
  assert.equal(exportedNotice([stroke, stroke, box]), 'Exported 2 strokes and a text box');
  assert.equal(exportedNotice([image, box, box, stroke]), 'Exported a stroke, 2 text boxes and an image');
  assert.equal(exportedNotice([image, image]), 'Exported 2 images');
  assert.equal(exportedNotice([]), 'Exported nothing: the selection is empty');
});
