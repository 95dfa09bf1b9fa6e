// The text box editor (js/app/text-editor.js) over a field that behaves as a textarea does for it: each
// input one change, the first one making the box; others' typing taken in with the caret kept; an input
// method's composition committed when it ends; Escape and the undo keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextEditor } from '../../js/app/text-editor.js';
import { Board } from '../../js/model/board.js';
import { strokeId } from '../../js/model/ids.js';
import { Viewport } from '../../js/app/viewport.js';
import { FakeSession, testAuthor } from './support.mjs';

/** A textarea as far as the editor reads and drives it. */
class Field extends EventTarget {
  value = '';
  selectionStart = 0;
  selectionEnd = 0;
  selectionDirection = 'none';
  hidden = true;
  scrollLeft = 0;
  scrollTop = 0;
  style = Object.assign({}, { setProperty: (name, value) => (this.style[name] = value) });
  ownerDocument = { activeElement: null };

  focus() {
    this.ownerDocument.activeElement = this;
  }

  setSelectionRange(start, end, direction = 'none') {
    this.selectionStart = start;
    this.selectionEnd = end;
    this.selectionDirection = direction;
  }

  /** Types: the value and the caret as the browser leaves them, then the input event. */
  type(value, caret = value.length, { composing = false } = {}) {
    this.value = value;
    this.setSelectionRange(caret, caret);
    this.dispatchEvent(Object.assign(new Event('input'), { isComposing: composing }));
  }

  key(key, options = {}) {
    const event = Object.assign(new Event('keydown', { cancelable: true }), { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...options });
    this.dispatchEvent(event);
    return event.defaultPrevented;
  }
}

function setup() {
  const session = new FakeSession(new Board('main'), testAuthor(1));
  const textarea = new Field();
  const surface = { focused: 0, focus: () => (surface.focused++, (textarea.ownerDocument.activeElement = surface)) };
  const editing = [];
  const renderer = { viewport: new Viewport({ width: 800, height: 600 }), style: (colour) => `#${colour.toString(16)}`, setEditing: (id) => editing.push(id) };
  const history = [];
  const editor = new TextEditor({
    textarea: /** @type {any} */ (textarea),
    surface: /** @type {any} */ (surface),
    session,
    renderer: /** @type {any} */ (renderer),
    commit: (operations) => session.commit(operations),
    onHistory: (action) => history.push(action),
  });
  session.addEventListener('change', (event) => editor.changed(event.detail.delta));
  return { session, textarea, surface, editing, editor, history };
}

/** Delivers a change of another page's to the editor's session. */
function deliver(session, change) {
  const delta = session.board.apply(change);
  session.dispatchEvent(Object.assign(new Event('change'), { detail: { changes: [change], delta } }));
}

test('nothing is made until the first character, which makes the box and its text in one change', () => {
  const { session, textarea, editing, editor } = setup();
  editor.start({ at: [10, 20], size: 36, colour: 0xe03131ff });
  assert.equal(editor.active, true);
  assert.equal(textarea.hidden, false);
  assert.equal(textarea.ownerDocument.activeElement, textarea, 'the field has the focus');
  assert.equal(textarea.style.font, '36px "Inkwell Sans", Helvetica, Arial, sans-serif');
  assert.equal(textarea.style.lineHeight, '1.25');
  assert.equal(textarea.style.color, '#e03131ff');
  assert.equal(session.committed.length, 0);
  textarea.type('H');
  const [first] = session.committed;
  const box = strokeId(first.id, 0);
  assert.deepEqual(first.operations, [
    { op: 'addText', colour: 0xe03131ff, size: 36, at: [10, 20] },
    { op: 'insertText', box, after: null, text: 'H' },
  ]);
  assert.equal(editor.box, box);
  assert.deepEqual(editing, [box], 'the tiles leave the box to the editor');
  textarea.type('Hi');
  textarea.type('Hi\nthere');
  assert.equal(session.committed.length, 3, 'a change an input');
  assert.equal(session.board.text(box), 'Hi\nthere');
  assert.deepEqual(editor.state(), { box, value: 'Hi\nthere', caret: 8 });
  assert.ok(textarea.style.transform.startsWith('matrix(1, 0, 0, 1, 10, '), textarea.style.transform);
  assert.equal(textarea.style.height, `${2 * 1.25 * 36}px`, 'two lines high');
  editor.finish();
  assert.equal(editor.active, false);
  assert.equal(textarea.hidden, true);
  assert.deepEqual(editing, [box, null]);
  assert.equal(session.board.text(box), 'Hi\nthere', 'finishing keeps the text');
});

test('others’ typing comes into the field with the caret after the same character', () => {
  const { session, textarea, editor } = setup();
  editor.start({ at: [0, 0], size: 20, colour: 0xff });
  textarea.type('Hello');
  const box = editor.box;
  const bob = new FakeSession(new Board('main'), testAuthor(2));
  for (const change of session.committed) bob.board.apply(change);
  // Ada's caret after "He".
  textarea.setSelectionRange(2, 2);
  deliver(session, bob.commit([bob.board.insertTextOperation(box, 0, '>> ')]));
  assert.equal(textarea.value, '>> Hello');
  assert.deepEqual([textarea.selectionStart, textarea.selectionEnd], [5, 5]);
  // A selection of "ll" keeps its ends on the same characters when text comes after it.
  textarea.setSelectionRange(5, 7, 'forward');
  deliver(session, bob.commit([bob.board.insertTextOperation(box, 8, ' 😀')]));
  assert.equal(textarea.value, '>> Hello 😀');
  assert.deepEqual([textarea.selectionStart, textarea.selectionEnd, textarea.selectionDirection], [5, 7, 'forward']);
  // Ada types at her caret: the insert goes after her "l", whatever Bob did.
  textarea.type('>> Hel!lo 😀', 7);
  assert.equal(session.board.text(box), '>> Hel!lo 😀');
  deliver(session, bob.commit(bob.board.deleteTextOperations(box, 0, 3)));
  assert.equal(bob.board.text(box), 'Hello 😀', 'Bob has not seen Ada’s "!"');
  assert.equal(textarea.value, 'Hel!lo 😀');
  assert.equal(textarea.selectionEnd, 4);
});

test('a composition is one change when it ends; others’ typing meanwhile waits for it', () => {
  const { session, textarea, editor } = setup();
  editor.start({ at: [0, 0], size: 20, colour: 0xff });
  textarea.type('ab');
  const box = editor.box;
  const count = session.committed.length;
  textarea.dispatchEvent(new Event('compositionstart'));
  textarea.type('abに', 3, { composing: true });
  textarea.type('abにほ', 4, { composing: true });
  assert.equal(session.committed.length, count, 'nothing while composing');
  const bob = new FakeSession(new Board('main'), testAuthor(2));
  for (const change of session.committed) bob.board.apply(change);
  deliver(session, bob.commit([bob.board.insertTextOperation(box, 0, '(')]));
  assert.equal(textarea.value, 'abにほ', 'the field is left alone while composing');
  textarea.type('ab日本', 4, { composing: true });
  textarea.dispatchEvent(new Event('compositionend'));
  assert.equal(session.committed.length, count + 1, 'one change');
  assert.equal(session.board.text(box), '(ab日本');
  assert.equal(textarea.value, '(ab日本', 'then the field takes in what came meanwhile');
  assert.equal(textarea.selectionEnd, 5);
});

test('Escape finishes, the undo keys undo on the board, a box undone ends the editing', () => {
  const { session, textarea, surface, editor, history } = setup();
  editor.start({ at: [0, 0], size: 20, colour: 0xff });
  textarea.type('Hi');
  assert.equal(textarea.key('z', { ctrlKey: true }), true);
  assert.equal(textarea.key('Z', { metaKey: true, shiftKey: true }), true);
  assert.equal(textarea.key('y', { ctrlKey: true }), true);
  assert.equal(textarea.key('a', { ctrlKey: true }), false, 'select all stays the field’s');
  assert.deepEqual(history, ['undo', 'redo', 'redo']);
  session.undo();
  assert.equal(editor.active, false, 'the box went with the undo');
  editor.edit(strokeId(session.committed[0].id, 0));
  assert.equal(editor.active, false, 'an undone box cannot be edited');
  session.redo();
  editor.edit(strokeId(session.committed[0].id, 0), 1);
  assert.deepEqual(editor.state(), { box: strokeId(session.committed[0].id, 0), value: 'Hi', caret: 1 });
  const focused = surface.focused;
  assert.equal(textarea.key('Escape'), true);
  assert.equal(editor.active, false);
  assert.equal(surface.focused, focused + 1, 'the board has the focus again');
});

test('a new box takes the size and colour picked while it waits; a box on the board is restyled by a change', () => {
  const { session, textarea, editor } = setup();
  editor.start({ at: [0, 0], size: 20, colour: 0xff });
  editor.restyle({ size: 56, colour: 0x1971c2ff });
  assert.equal(session.committed.length, 0);
  textarea.type('A');
  assert.deepEqual(session.committed[0].operations[0], { op: 'addText', colour: 0x1971c2ff, size: 56, at: [0, 0] });
  editor.restyle({ colour: 0xe03131ff });
  assert.equal(session.board.stroke(editor.box).colour, 0xe03131ff);
  assert.equal(textarea.style.color, '#e03131ff', 'the field follows');
  editor.restyle({ size: 16 });
  assert.equal(session.board.stroke(editor.box).width, 16);
  assert.equal(textarea.style.font, '16px "Inkwell Sans", Helvetica, Arial, sans-serif');
});
