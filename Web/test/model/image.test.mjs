// Images on the board (docs/ARCHITECTURE.md, "Images on the board"): an element like a stroke that names a
// blob and the box it fills; what makes one malformed, what it ignores, how it is written canonically,
// copied, restored and dropped when dead, and what the page reads of it. Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { boardAt, restoreOperations, timeline } from '../../js/model/board-history.js';
import { IMAGE_TYPES, MAXIMUM_IMAGE_BYTES, MAXIMUM_IMAGE_SIDE } from '../../js/model/board-image.js';
import { addImageOperation, imageCorners, imagesIn } from '../../js/model/board-images.js';
import { CanonicalEncoder } from '../../js/model/canonical-encoder.js';
import { changeKey, replicaBytes, strokeId } from '../../js/model/ids.js';
import { readOperation } from '../../js/model/operation.js';
import { copyOperations } from '../../js/model/selection-edits.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { boardAfter } from './support/boards.mjs';
import { reproducibly, runSeed, seededRandom } from './support/random.mjs';
import { ReplicaSession } from './support/replica-session.mjs';
import { hex } from './support/vectors.mjs';

const BLOB = Array.from({ length: 32 }, (_, i) => ((i * 7) & 0xff).toString(16).padStart(2, '0')).join('');
const photo = Object.freeze({ blob: BLOB, bytes: 48_213, type: 'image/jpeg', width: 320, height: 240 });
const addImage = (at = [-40, 300], image = {}) => ({ op: 'addImage', ...photo, ...image, at });
const set = (stroke, attribute, value) => ({ op: 'set', stroke, attribute, value });
const undo = (change) => ({ op: 'undo', change: change.id });
const settle = (through, inactive = []) => ({ op: 'settle', through, inactive });
const cut = (...entries) => new Map(entries.map(([author, seq]) => [author.replica, seq]));

test('an image is an element like a stroke: its corner its point, its box’s width its width, black', () => {
  const alice = testAuthor(1);
  const placed = alice.makeChange('main', [add(line(3)), addImage()]);
  const board = boardAfter([placed]);
  const image = strokeOf(placed, 1);
  assert.deepEqual(board.stroke(image), {
    id: image,
    colour: 0x000000ff,
    width: 320,
    z: 0,
    transform: [1, 0, 0, 1, 0, 0],
    points: [[-40, 300]],
    pressures: null,
    pieces: [[0, 0]],
    image: photo,
  });
  const ink = board.stroke(strokeOf(placed));
  assert.ok(!('image' in ink) && !('text' in board.stroke(image)), 'ink has no image key, an image no text');
  assert.deepEqual(board.image(image), photo);
  assert.equal(board.image(strokeOf(placed)), null, 'a stroke names no image');
  assert.equal(board.image(`${alice.replica}-9-0`), null, 'nor does one not here');
  assert.equal(board.text(image), null, 'an image is no text box');
  assert.ok(Object.isFrozen(board.stroke(image).image), 'the drawing shares what the board keeps');
});

test('colour and width writes do nothing to an image; transform, z-order, delete, clear and undo do', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const placed = alice.makeChange('main', [addImage()]);
  const image = strokeOf(placed);
  const ink = alice.makeChange('main', [add(line(4, 310))]);
  const moved = bob.makeChange('main', [
    set(image, 'transform', [0.5, 0, 0, 0.5, 12, -8]),
    set(image, 'zOrder', -2),
    set(image, 'width', 10),
    set(image, 'colour', 0x010203ff),
  ]);
  const board = boardAfter([moved, ink, placed]);
  const shown = board.stroke(image);
  assert.deepEqual([shown.colour, shown.width, shown.z], [0x000000ff, 320, -2]);
  assert.deepEqual(shown.transform, [0.5, 0, 0, 0.5, 12, -8]);
  assert.deepEqual(board.strokes().map((stroke) => stroke.id), [image, strokeOf(ink)]);
  const deleted = bob.makeChange('main', [set(image, 'deleted', true)]);
  board.apply(deleted);
  assert.equal(board.stroke(image), null);
  board.apply(bob.makeChange('main', [undo(deleted)]));
  assert.notEqual(board.stroke(image), null, 'undoing the delete brings it back');
  const cleared = alice.makeChange('main', [{ op: 'clear' }]);
  board.apply(cleared);
  assert.equal(board.visibleStrokeCount, 0);
  board.apply(alice.makeChange('main', [undo(placed), undo(cleared)]));
  assert.deepEqual(board.strokes().map((stroke) => stroke.id), [strokeOf(ink)], 'its add undone, it is gone');
  board.checkInvariants();
});

test('erases, appends and text aimed at an image do nothing, whichever arrives first', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const placed = alice.makeChange('main', [addImage()]);
  const image = strokeOf(placed);
  const aimed = [
    { op: 'erase', stroke: image, intervals: [[-1, 1]] },
    { op: 'insertText', box: image, after: null, text: 'caption' },
    { op: 'deleteText', box: image, ranges: [{ run: image, from: 0, to: 1 }] },
  ];
  const appended = alice.makeChange('main', [{ op: 'appendPoints', stroke: image, points: [[1, 1]], pressures: null }]);
  const expected = boardAfter([placed]).strokes();
  for (const order of [
    [placed, bob.makeChange('main', aimed), appended],
    [bob.makeChange('main', aimed), appended, placed],
  ]) {
    const board = boardAfter(order);
    assert.deepEqual(board.strokes(), expected);
    assert.deepEqual(board.visibleCharacters(image), []);
  }
});

test('an addImage is read only when every board takes it', () => {
  const good = [
    addImage(),
    addImage([0, 0], { blob: BLOB.toUpperCase() }),
    addImage([1e9, -1e9], { bytes: 1 }),
    addImage([0, 0], { bytes: MAXIMUM_IMAGE_BYTES }),
    addImage([0, 0], { width: MAXIMUM_IMAGE_SIDE, height: Number.MIN_VALUE }),
    ...IMAGE_TYPES.map((type) => addImage([0, 0], { type })),
  ];
  for (const op of good) assert.equal(readOperation(op)?.kind, 'addImage', JSON.stringify(op));
  assert.equal(readOperation(good[1]).image.blob, BLOB, 'a name in capitals is kept in lowercase');
  const bad = {
    'a short name': addImage([0, 0], { blob: BLOB.slice(2) }),
    'a long name': addImage([0, 0], { blob: `${BLOB}00` }),
    'a name not hex': addImage([0, 0], { blob: `${BLOB.slice(2)}zz` }),
    'no name': addImage([0, 0], { blob: undefined }),
    'no bytes': addImage([0, 0], { bytes: 0 }),
    'a fraction of a byte': addImage([0, 0], { bytes: 1.5 }),
    'more bytes than a page counts': addImage([0, 0], { bytes: 2 ** 53 }),
    'bytes as a string': addImage([0, 0], { bytes: '5' }),
    'SVG, which can carry script': addImage([0, 0], { type: 'image/svg+xml' }),
    'a type in capitals': addImage([0, 0], { type: 'image/PNG' }),
    'no type': addImage([0, 0], { type: undefined }),
    'no height': addImage([0, 0], { height: 0 }),
    'a negative width': addImage([0, 0], { width: -1 }),
    'too wide': addImage([0, 0], { width: MAXIMUM_IMAGE_SIDE + 0.5 }),
    'an endless height': addImage([0, 0], { height: Infinity }),
    'a width not a number': addImage([0, 0], { width: NaN }),
    'a corner off the board': addImage([2e9, 0]),
    'a corner of one number': addImage([0]),
    'a corner not finite': addImage([0, NaN]),
  };
  for (const [name, op] of Object.entries(bad)) assert.equal(readOperation(op), null, name);
  const alice = testAuthor(1);
  const board = boardAfter([alice.makeChange('main', Object.values(bad))]);
  assert.equal(board.visibleStrokeCount, 0);
  // A malformed add still takes its index: the next add's id is its change's and its own index.
  const mixed = alice.makeChange('main', [bad['no bytes'], addImage()]);
  board.apply(mixed);
  assert.deepEqual(board.strokes().map((stroke) => stroke.id), [strokeOf(mixed, 1)]);
});

test('an image is written canonically as a stroke whose pressures flag is 3, then its blob, size, type, height', () => {
  const alice = testAuthor(7);
  const placed = alice.makeChange('main', [addImage([1.5, -2], { bytes: 300, type: 'image/webp', height: 0.25 })]);
  const board = boardAfter([placed]);
  const expected = new CanonicalEncoder();
  expected.writeVarint(1);
  expected.writeRaw(replicaBytes(alice.replica));
  expected.writeVarint(1);
  expected.writeVarint(0);
  expected.writeVarint(0x000000ff);
  for (const number of [320, 0, 1, 0, 0, 1, 0, 0]) expected.writeDouble(number);
  expected.writeVarint(1);
  expected.writeDouble(1.5);
  expected.writeDouble(-2);
  expected.writeVarint(3);
  expected.writeVarint(32);
  expected.writeRaw(Uint8Array.from(Buffer.from(BLOB, 'hex')));
  expected.writeVarint(300);
  expected.writeVarint(10);
  expected.writeRaw(new TextEncoder().encode('image/webp'));
  expected.writeDouble(0.25);
  expected.writeVarint(1);
  expected.writeDouble(0);
  expected.writeDouble(0);
  assert.equal(hex(board.canonicalEncoding()), hex(expected.bytes));
  const tail = '0320' + BLOB + 'ac02' + '0a' + hex(new TextEncoder().encode('image/webp')) + '3fd0000000000000' + '01';
  assert.ok(hex(board.canonicalEncoding()).includes(tail), 'flag 3, 32 bytes of name, size 300, 10 bytes of type');
  const larger = boardAfter([testAuthor(7).makeChange('main', [addImage([1.5, -2], { bytes: MAXIMUM_IMAGE_BYTES })])]);
  assert.ok(hex(larger.canonicalEncoding()).includes(`0320${BLOB}ffffffffffffff0f`), 'a size of 2^53 − 1, exactly');
});

test('a copy of an image names the same blob and box, then moves and stacks like any copy', () => {
  const alice = testAuthor(1);
  const placed = alice.makeChange('main', [addImage([10, 20]), add(line(2))]);
  const image = strokeOf(placed);
  const edits = [set(image, 'transform', [1, 0, 0, 1, 5, 5]), set(strokeOf(placed, 1), 'zOrder', 2)];
  const board = boardAfter([placed, alice.makeChange('main', edits)]);
  const copy = (index) => strokeId({ replica: alice.replica, seq: 3 }, index);
  const operations = copyOperations([board.stroke(image)], [8, 0], copy, board.strokes());
  assert.deepEqual(operations, [
    { op: 'addImage', ...photo, at: [10, 20] },
    set(copy(0), 'transform', [1, 0, 0, 1, 13, 5]),
    set(copy(0), 'zOrder', 3),
  ]);
  const copied = alice.makeChange('main', operations);
  board.apply(copied);
  assert.deepEqual(board.stroke(copy(0)).image, photo);
  assert.deepEqual(board.images().map(({ id }) => id), [image, copy(0)]);
});

test('restoring brings back a deleted image as a copy and a moved one’s transform', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const placed = alice.makeChange('main', [addImage([0, 0]), addImage([500, 0], { type: 'image/png' })]);
  const [first, second] = [strokeOf(placed, 0), strokeOf(placed, 1)];
  const edits = bob.makeChange('main', [set(first, 'deleted', true), set(second, 'transform', [2, 0, 0, 2, 0, 0])]);
  const history = timeline([placed, edits], 'main');
  const now = boardAt(history, 2, 'main');
  const then = boardAt(history, 1, 'main');
  const restorer = { replica: testAuthor(3).replica, seq: 1 };
  const operations = restoreOperations(now, then, (index) => strokeId(restorer, index));
  assert.deepEqual(operations, [
    { op: 'addImage', ...photo, at: [0, 0] },
    set(second, 'transform', [1, 0, 0, 1, 0, 0]),
    set(strokeId(restorer, 0), 'zOrder', 0),
    set(second, 'zOrder', 1),
  ]);
  now.apply({ id: restorer, stamp: { wall: edits.stamp.wall + 1, counter: 0 }, board: 'main', operations });
  const look = (board) => board.strokes().map(({ image, points, transform }) => ({ image, points, transform }));
  assert.deepEqual(look(now), look(then));
});

test('an addImage goes when malformed or its image is dead; text aimed at an image goes', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const placed = alice.makeChange('main', [addImage()]);
  const image = strokeOf(placed);
  const malformed = alice.makeChange('main', [addImage([0, 0], { type: 'text/html' })]);
  const kept = alice.makeChange('main', [addImage([5, 5])]);
  const typed = bob.makeChange('main', [{ op: 'insertText', box: image, after: null, text: 'x' }]);
  const trimmed = bob.makeChange('main', [{ op: 'deleteText', box: image, ranges: [{ run: image, from: 0, to: 1 }] }]);
  const deleted = bob.makeChange('main', [set(image, 'deleted', true)]);
  const settled = bob.makeChange('main', [settle(3)]);
  const all = [placed, malformed, kept, typed, trimmed, deleted, settled];
  const board = boardAfter(all);
  const inert = new Set(board.inertChanges(all, cut([alice, 3], [bob, 4])).map(changeKey));
  // The deletion stays, the proof of the image's end; the add and the text aimed at it go.
  const expected = [placed, malformed, typed, trimmed].map((change) => changeKey(change.id));
  assert.deepEqual(inert, new Set(expected));
  const rest = all.filter((change) => !inert.has(changeKey(change.id)));
  assert.equal(boardAfter(rest).hash(), board.hash());
});

test('the page lists the blobs to fetch, the box each image fills, and the operation that places one', () => {
  const alice = testAuthor(1);
  const operation = addImageOperation({ ...photo, blob: BLOB.toUpperCase() }, [10, 20]);
  assert.deepEqual(operation, { op: 'addImage', ...photo, at: [10, 20] });
  for (const wrong of [{ bytes: 0 }, { type: 'image/svg+xml' }, { width: 0 }, { blob: 'ab' }]) {
    assert.throws(() => addImageOperation({ ...photo, ...wrong }, [0, 0]), RangeError, JSON.stringify(wrong));
  }
  assert.throws(() => addImageOperation(photo, [Infinity, 0]), RangeError);
  const placed = alice.makeChange('main', [operation, add(line(2)), addImage([0, 0], { type: 'image/gif' })]);
  const board = boardAfter([placed]);
  assert.deepEqual(board.images(), [
    { id: strokeOf(placed, 0), blob: BLOB, type: 'image/jpeg', bytes: 48_213 },
    { id: strokeOf(placed, 2), blob: BLOB, type: 'image/gif', bytes: 48_213 },
  ]);
  assert.deepEqual(imagesIn(board.strokes().slice(1)), board.images().slice(1));
  board.apply(alice.makeChange('main', [set(strokeOf(placed), 'transform', [0, 1, -1, 0, 100, 0])]));
  assert.deepEqual(imageCorners(board.stroke(strokeOf(placed))), [
    [80, 10],
    [80, 330],
    [-160, 330],
    [-160, 10],
  ]);
});

test('sessions that place images converge in any delivery order, with duplicates (seeded)', (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    let [placed, shown] = [0, 0];
    for (let round = 0; round < 3; round++) {
      const session = new ReplicaSession(random, 3, { text: true });
      session.run(300);
      const model = boardAfter(session.changes);
      placed += session.changes.flatMap((change) => change.operations).filter(({ op }) => op === 'addImage').length;
      shown += model.images().length;
      for (let order = 0; order < 3; order++) {
        const extra = Array.from({ length: 30 }, () => random.pick(session.changes));
        const board = new Board('main');
        board.applyAll(random.shuffled([...session.changes, ...extra]));
        board.checkInvariants();
        assert.equal(board.hash(), model.hash(), `round ${round}, order ${order}`);
        assert.deepEqual(board.images(), model.images(), `round ${round}, order ${order}`);
      }
    }
    t.diagnostic(`${placed} images placed, ${shown} shown at the ends of the sessions`);
    assert.ok(placed > 0, 'the sessions placed images');
  });
});
