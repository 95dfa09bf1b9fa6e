// What the page keeps in localStorage: identity, theme, settings (js/app/identity.js, theme.js,
// settings.js), and colours (js/app/colour.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IDENTITY_COLOURS, cleanName, loadIdentity, saveIdentity } from '../../js/app/identity.js';
import { applyTheme, otherTheme, resolveTheme, storeTheme, storedTheme } from '../../js/app/theme.js';
import { clampWidth, defaultSettings, loadSettings, saveSettings, stepWidth } from '../../js/app/settings.js';
import { colourHex, inkStyle, parseColour } from '../../js/app/colour.js';

class MemoryStorage {
  items = new Map();
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

const refusing = {
  getItem() {
    throw new Error('denied');
  },
  setItem() {
    throw new Error('denied');
  },
};

test('a first visit gets a friendly name and colour, kept for the next', () => {
  const storage = new MemoryStorage();
  const first = loadIdentity(storage, () => 0.99);
  assert.match(first.name, /^\w+ \w+$/);
  assert.ok(IDENTITY_COLOURS.includes(first.colour));
  assert.deepEqual(loadIdentity(storage, () => 0), first);
  saveIdentity(storage, { name: 'Ada', colour: 0x123456ff });
  assert.deepEqual(loadIdentity(storage), { name: 'Ada', colour: 0x123456ff });
});

test('damaged or refused storage falls back to a fresh identity', () => {
  const storage = new MemoryStorage();
  storage.setItem('inkwell.identity', '{not json');
  assert.ok(loadIdentity(storage).name);
  storage.setItem('inkwell.identity', JSON.stringify({ name: '  ', colour: 5 }));
  assert.notEqual(loadIdentity(storage).name.trim(), '');
  assert.ok(loadIdentity(refusing).name);
  assert.ok(loadIdentity(null).name);
});

test('names are trimmed, collapsed and kept short', () => {
  assert.equal(cleanName('  Ada   Lovelace \n'), 'Ada Lovelace');
  assert.equal(cleanName('   '), null);
  assert.equal([...cleanName('🙂'.repeat(50))].length, 40, 'counted in characters, not UTF-16 units');
});

test('the theme is the stored choice, else the system’s', () => {
  assert.equal(resolveTheme(null, true), 'dark');
  assert.equal(resolveTheme(null, false), 'light');
  assert.equal(resolveTheme('light', true), 'light');
  assert.equal(resolveTheme('purple', true), 'dark');
  assert.equal(otherTheme('dark'), 'light');
  const storage = new MemoryStorage();
  storeTheme(storage, 'dark');
  assert.equal(storedTheme(storage), 'dark');
  assert.equal(storedTheme(refusing), null);
  storeTheme(refusing, 'dark');
  const document = { documentElement: { dataset: {}, style: {} } };
  applyTheme(document, 'dark');
  assert.equal(document.documentElement.dataset.theme, 'dark');
  assert.equal(document.documentElement.style.colorScheme, 'dark');
});

test('settings come back checked, over the defaults', () => {
  const storage = new MemoryStorage();
  assert.deepEqual(loadSettings(storage), defaultSettings());
  saveSettings(storage, { tool: 'eraser', colour: 0xe03131ff, width: 12, shapes: true, textSize: 36 });
  assert.deepEqual(loadSettings(storage), { tool: 'eraser', colour: 0xe03131ff, width: 12, shapes: true, textSize: 36 });
  saveSettings(storage, { tool: 'text', colour: 0xe03131ff, width: 12, shapes: true });
  assert.deepEqual(loadSettings(storage), { tool: 'text', colour: 0xe03131ff, width: 12, shapes: true, textSize: 24 }, 'settings kept before text sizes');
  storage.setItem('inkwell.settings', JSON.stringify({ tool: 'laser', colour: -1, width: 1e9, shapes: 'yes', textSize: 17 }));
  assert.deepEqual(loadSettings(storage), { ...defaultSettings(), width: 32 });
  assert.deepEqual(loadSettings(refusing), defaultSettings());
});

test('widths step finely when thin and coarsely when thick', () => {
  assert.equal(stepWidth(1, -1), 1);
  assert.equal(stepWidth(2, 1), 3);
  assert.equal(stepWidth(4, 1), 6);
  assert.equal(stepWidth(12, 1), 16);
  assert.equal(stepWidth(32, 1), 32);
  assert.equal(clampWidth(0.2), 1);
});

test('colours convert between 0xRRGGBBAA and CSS', () => {
  assert.equal(colourHex(0x1971c2ff), '#1971c2');
  assert.equal(colourHex(0xff000080), '#ff000080');
  assert.equal(colourHex(0x000000ff), '#000000');
  assert.equal(parseColour('#1971C2'), 0x1971c2ff);
  assert.equal(parseColour('#abc'), 0xaabbccff);
  assert.equal(parseColour('#ff000080'), 0xff000080);
  assert.equal(parseColour('red'), null);
});

test('dark inks are lightened on the dark board, keeping their hue; bright ones stay', () => {
  assert.equal(inkStyle(0x1e1e1eff, 'light'), 'rgb(30 30 30)');
  assert.equal(inkStyle(0x000000ff, 'dark'), 'rgb(255 255 255)');
  assert.equal(inkStyle(0x1e1e1eff, 'dark'), 'rgb(225 225 225)');
  assert.equal(inkStyle(0xe03131ff, 'dark'), 'rgb(224 49 49)', 'light enough already');
  assert.equal(inkStyle(0xf08c00ff, 'dark'), 'rgb(255 155 15)', 'nearly light enough: barely moves');
  const [r, g, b] = inkStyle(0x1971c2ff, 'dark').match(/\d+/g).map(Number);
  assert.ok(b > r && b > g && r > 0x19, `navy-ish blue becomes a lighter blue: ${r} ${g} ${b}`);
  assert.equal(inkStyle(0xff000080, 'light'), 'rgb(255 0 0 / 0.502)');
});
