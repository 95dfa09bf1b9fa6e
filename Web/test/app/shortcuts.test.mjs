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
  assert.equal(shortcutFor(key('t')), 'tool:text');
  assert.equal(shortcutFor(key('i')), 'image', 'I opens the image picker');
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

test('V and L pick the select and lasso tools', () => {
  assert.equal(shortcutFor(key('v')), 'tool:select');
  assert.equal(shortcutFor(key('L')), 'tool:lasso');
  assert.equal(shortcutFor({ key: 'м', code: 'KeyV' }), 'tool:select', 'by the key’s place on other layouts');
  assert.equal(shortcutFor(key('v', { ctrlKey: true })), null, 'paste stays the browser’s');
  assert.equal(shortcutFor(key('x', { ctrlKey: true })), null, 'so does cut');
});

test('selection keys: delete, duplicate, restack, select all, nudge', () => {
  assert.equal(shortcutFor({ key: 'Delete', code: 'Delete' }), 'selection:delete');
  assert.equal(shortcutFor({ key: 'Backspace', code: 'Backspace' }), 'selection:delete');
  assert.equal(shortcutFor(key('d', { ctrlKey: true })), 'selection:duplicate');
  assert.equal(shortcutFor(key('d', { metaKey: true })), 'selection:duplicate');
  assert.equal(shortcutFor({ key: ']', code: 'BracketRight', ctrlKey: true }), 'selection:front');
  assert.equal(shortcutFor({ key: '[', code: 'BracketLeft', metaKey: true }), 'selection:back');
  assert.equal(shortcutFor({ key: 'ü', code: 'BracketLeft', ctrlKey: true }), 'selection:back', 'a German layout’s [ key');
  assert.equal(shortcutFor(key('a', { ctrlKey: true })), 'select-all');
  assert.equal(shortcutFor(key('a', { ctrlKey: true, shiftKey: true })), null);
  assert.equal(shortcutFor({ key: 'ArrowLeft', code: 'ArrowLeft' }), 'nudge:left');
  assert.equal(shortcutFor({ key: 'ArrowDown', code: 'ArrowDown', shiftKey: true }), 'nudge:down:far');
  assert.equal(shortcutFor({ key: 'ArrowUp', code: 'ArrowUp', target: { tagName: 'INPUT', type: 'range' } }), null, 'the slider’s arrows');
  assert.equal(shortcutFor({ key: 'Backspace', target: { tagName: 'INPUT', type: 'text' } }), null, 'typing deletes text');
  assert.equal(shortcutFor(key('a', { ctrlKey: true, target: { tagName: 'INPUT', type: 'text' } })), null);
});

test('every selection button’s tooltip names its shortcut', () => {
  assert.equal(shortcutLabel('tool:select', false), 'V');
  assert.equal(shortcutLabel('tool:lasso', false), 'L');
  assert.equal(shortcutLabel('selection:delete', false), 'Delete');
  assert.equal(shortcutLabel('selection:duplicate', false), 'Ctrl+D');
  assert.equal(shortcutLabel('selection:duplicate', true), '⌘D');
  assert.equal(shortcutLabel('selection:front', false), 'Ctrl+]');
  assert.equal(shortcutLabel('selection:back', true), '⌘[');
});
