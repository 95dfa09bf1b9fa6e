// The help sheet lists every shortcut the toolbar's tooltips show, spelt for the platform.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { helpSections } from '../../js/app/help-sheet.js';
import { SHORTCUT_LABELS, shortcutFor, shortcutLabel } from '../../js/app/shortcuts.js';

for (const mac of [false, true]) {
  test(`every shortcut is on the sheet (${mac ? 'Mac' : 'elsewhere'})`, () => {
    const keys = new Set(helpSections(mac).flatMap((section) => section.rows.flatMap(([row]) => row)));
    for (const action of Object.keys(SHORTCUT_LABELS)) {
      assert.ok(keys.has(shortcutLabel(action, mac)), `${action} (${shortcutLabel(action, mac)}) is missing`);
    }
    for (const section of helpSections(mac)) {
      for (const [row, what] of section.rows) {
        assert.ok(row.length > 0 && row.every((key) => typeof key === 'string' && key !== ''), what);
      }
    }
  });
}

test('? opens the sheet, H the history', () => {
  assert.equal(shortcutFor({ key: '?', shiftKey: true }), 'help');
  assert.equal(shortcutFor({ key: 'h' }), 'history');
  assert.equal(shortcutFor({ key: '?', target: { tagName: 'TEXTAREA' } }), null);
});
