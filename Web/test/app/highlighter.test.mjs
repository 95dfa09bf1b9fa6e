// The highlighter (js/app/tools/highlighter.js): a pen of wide, translucent ink of the highlighter brush,
// which the board stacks beneath everything.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HighlighterTool, highlighterColour, highlighterWidth } from '../../js/app/tools/highlighter.js';
import { PenTool } from '../../js/app/tools/pen.js';
import { fillColour } from '../../js/app/fill.js';
import { shortcutFor } from '../../js/app/shortcuts.js';
import { at, recordingContext, toolContext } from './support.mjs';

test('its colour is the pen colour at about 40 %; a fill at about 35 %', () => {
  assert.equal(highlighterColour(0xe03131ff), 0xe0313166);
  assert.equal(fillColour(0x1971c2ff), 0x1971c259);
});

test('it commits a wide, translucent highlighter stroke without pressure, beneath the ink before it', () => {
  const context = toolContext({ settings: { colour: 0xe03131ff, width: 3 } });
  const pen = new PenTool(context);
  pen.down(at(0, 0));
  pen.up(at(40, 0));
  const marker = new HighlighterTool(context);
  marker.down(at(0, 10, { pointerType: 'pen', pressure: 0.3 }));
  marker.move([at(20, 10, { pointerType: 'pen', pressure: 0.9 })]);
  const ctx = recordingContext();
  marker.layer(ctx, context.renderer);
  assert.ok(ctx.calls.some((call) => call[0] === '=lineWidth' && call[1] === 12), 'shown wide while drawn: four times the pen');
  assert.ok(ctx.calls.some((call) => call[0] === '=strokeStyle' && call[1] === context.renderer.style(0xe0313166)), 'and translucent');
  assert.equal(context.ink.at(-1).colour, 0xe0313166, 'others see it translucent too');
  marker.up(at(40, 10));
  const [op] = context.session.committed.at(-1).operations;
  assert.deepEqual([op.brush, op.colour, op.width, op.pressures], ['highlighter', 0xe0313166, 12, null]);
  const stack = context.session.board.strokes();
  assert.deepEqual(stack.map((stroke) => stroke.brush), ['highlighter', undefined]);
});

test('its width follows the pen width picked, within 8 and the widest pen', () => {
  assert.deepEqual([1, 2, 3, 4, 6, 8, 32].map(highlighterWidth), [8, 8, 12, 16, 24, 32, 32]);
});

test('M picks it', () => {
  assert.equal(shortcutFor({ key: 'm' }), 'tool:highlighter');
  assert.equal(shortcutFor({ key: 'ь', code: 'KeyM' }), 'tool:highlighter');
});
