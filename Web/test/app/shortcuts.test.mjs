// Keyboard shortcuts (js/app/shortcuts.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortcutFor, shortcutLabel } from '../../js/app/shortcuts.js';

const key = (key, extra = {}) => ({ key, code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : '', ...extra });

test('undo and redo with Ctrl or ⌘, redo also as Ctrl+Y', () => {
  assert.equal(shortcutFor(key('z', { ctrlKey: true })), 'undo');
  assert.equal(shortcutFor(key('z', { metaKey: true })), 'undo');
  assert.equal(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true })), 'redo');
  assert.equal(shortcutFor(key('z', { metaKey: true, shiftKey: true })), 'redo');
  assert.equal(shortcutFor(key('y', { ctrlKey: true })), 'redo');
  assert.equal(shortcutFor(key('z', { ctrlKey: true, altKey: true })), null);
  assert.equal(shortcutFor(key('c', { ctrlKey: true })), null, 'copy stays the browser’s');
});

test('letters pick tools, whatever the keyboard layout', () => {
  assert.equal(shortcutFor(key('p')), 'tool:pen');
  assert.equal(shortcutFor(key('E')), 'tool:eraser');
  assert.equal(shortcutFor(key('x')), 'tool:stroke-eraser');
  assert.equal(shortcutFor(key('s')), 'toggle:shapes');
  assert.equal(shortcutFor(key('T', { shiftKey: true })), 'theme');
  assert.equal(shortcutFor({ key: 'я', code: 'KeyZ', ctrlKey: true }), 'undo', 'a Cyrillic layout still undoes');
  assert.equal(shortcutFor({ key: 'з', code: 'KeyP' }), 'tool:pen');
  assert.equal(shortcutFor(key('q')), null);
});

test('zoom and width keys', () => {
  assert.equal(shortcutFor(key('+', { shiftKey: true })), 'zoom:in');
  assert.equal(shortcutFor(key('=')), 'zoom:in');
  assert.equal(shortcutFor(key('-')), 'zoom:out');
  assert.equal(shortcutFor(key('0')), 'zoom:reset');
  assert.equal(shortcutFor(key('1')), 'zoom:fit');
  assert.equal(shortcutFor(key('[')), 'width:down');
  assert.equal(shortcutFor(key(']')), 'width:up');
});

test('keys typed into a text field are not shortcuts', () => {
  const field = { tagName: 'INPUT', type: 'text' };
  assert.equal(shortcutFor(key('p', { target: field })), null);
  assert.equal(shortcutFor(key('z', { ctrlKey: true, target: field })), null, 'the field undoes its own typing');
  assert.equal(shortcutFor(key('p', { target: { tagName: 'TEXTAREA' } })), null);
  assert.equal(shortcutFor(key('p', { target: { tagName: 'DIV', isContentEditable: true } })), null);
  assert.equal(shortcutFor(key('p', { target: { tagName: 'INPUT', type: 'range' } })), 'tool:pen', 'a slider is not typing');
  assert.equal(shortcutFor(key('p', { target: { tagName: 'BUTTON' } })), 'tool:pen');
});

test('tooltips show the platform’s modifier', () => {
  assert.equal(shortcutLabel('undo', false), 'Ctrl+Z');
  assert.equal(shortcutLabel('undo', true), '⌘Z');
  assert.equal(shortcutLabel('redo', true), '⇧⌘Z');
  assert.equal(shortcutLabel('tool:pen', true), 'P');
  assert.equal(shortcutLabel('export-png', false), '');
});

test('Escape abandons the stroke or erase in progress', () => {
  assert.equal(shortcutFor({ key: 'Escape', code: 'Escape' }), 'cancel');
});
