// Images on the page: where a new one lands (js/app/image-placement.js), how the scene, the select and lasso
// tools, the erasers and the text tool take them, how they are painted, exported to SVG as Swift does
// (Tests/InkwellBoardTests/ImageElementTests.swift), copied through the clipboard, and named in the history.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitImage, placeImage } from '../../js/app/image-placement.js';
import { boxHits, lassoHits, pointHit, selectionBounds } from '../../js/app/selecting.js';
import { eraseOperations, partialCuts, strokeHits } from '../../js/app/erasing.js';
import { boxAt } from '../../js/app/text-hits.js';
import { paintStroke, paintStrokes } from '../../js/app/stroke-painter.js';
import { boardSVG, strokeBounds } from '../../js/app/export-svg.js';
import { base64, imageElement } from '../../js/app/svg-image.js';
import { clipboardPayload, readClipboard, readClipboardData, STROKES_TYPE } from '../../js/app/clipboard.js';
import { SelectionActions } from '../../js/app/selection-actions.js';
import { describeChange } from '../../js/app/history-panel.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line, recordingContext, toolContext } from './support.mjs';

const BLOB = 'ab'.repeat(32);
const PHOTO = { blob: BLOB, bytes: 5, type: 'image/png', width: 40, height: 30 };

/** Places `image` with its corner at `corner`, as one change; its id. */
function addImage(session, corner = [10, 20], image = PHOTO, transform = null) {
  const next = session.nextChange;
  const id = strokeId(next, 0);
  const operations = [{ op: 'addImage', ...image, at: corner }];
  if (transform !== null) operations.push({ op: 'set', stroke: id, attribute: 'transform', value: transform });
  session.commit(operations);
  return id;
}

const view = { minX: 0, minY: 0, maxX: 1000, maxY: 800 };

test('a new image keeps its natural size where it fits, and shrinks to 60 % of the view where it does not', () => {
  assert.deepEqual(fitImage({ width: 384, height: 256 }, view), { width: 384, height: 256 });
  // 60 % of 800 is 480: a tall image is fitted by its height, keeping its shape.
  assert.deepEqual(fitImage({ width: 1200, height: 1600 }, view), { width: 360, height: 480 });
  assert.deepEqual(fitImage({ width: 3000, height: 1000 }, view), { width: 600, height: 200 });
  // Zoomed out, the view is larger in board pixels: the same photo lands larger, never past its own size.
  assert.deepEqual(fitImage({ width: 1200, height: 1600 }, { minX: 0, minY: 0, maxX: 4000, maxY: 3200 }), { width: 1200, height: 1600 });
  // Never past the board's largest side, whatever the view.
  const huge = fitImage({ width: 30_000, height: 10 }, { minX: 0, minY: 0, maxX: 1e9, maxY: 1e9 }, 1);
  assert.ok(huge.width <= 100_000 && huge.width === 30_000);
  assert.ok(fitImage({ width: 400_000, height: 100 }, { minX: 0, minY: 0, maxX: 1e9, maxY: 1e9 }).width <= 100_000);
});

test('a new image is centred where it was dropped, or in the middle of the view', () => {
  assert.deepEqual(placeImage({ width: 100, height: 50 }, [300, 200], view), { at: [250, 175], width: 100, height: 50 });
  assert.deepEqual(placeImage({ width: 100, height: 50 }, null, view), { at: [450, 375], width: 100, height: 50 });
  const shrunk = placeImage({ width: 2000, height: 2000 }, [0, 0], view);
  assert.deepEqual(shrunk, { at: [-240, -240], width: 480, height: 480 });
});

test('the scene holds an image as the box it fills, under its transform', () => {
  const context = toolContext();
  const { session, scene } = context;
  const id = addImage(session, [10, 20], PHOTO, [0, 1, -1, 0, 100, 0]);
  const record = scene.stroke(id);
  assert.equal(record.image, session.board.stroke(id).image);
  // A quarter turn: (x, y) → (100 − y, x).
  assert.deepEqual(record.corners, [[80, 10], [80, 50], [50, 50], [50, 10]]);
  assert.ok(record.bounds.minX < 50 && record.bounds.maxX > 80 && record.bounds.minY < 10 && record.bounds.maxY > 50);
  assert.deepEqual(scene.images().map((stroke) => stroke.id), [id]);
  assert.deepEqual(scene.bounds(), record.bounds);
  session.commit([{ op: 'set', stroke: id, attribute: 'deleted', value: true }]);
  assert.deepEqual(scene.images(), []);
});

test('a click inside an image selects it; a box takes it by its corners, a loop by its middle', () => {
  const context = toolContext();
  const { session, scene } = context;
  const stroke = strokeId(session.commit([add(line(5, { x: 0, y: 0 }))]).id, 0);
  const image = addImage(session, [100, 100]);
  assert.equal(pointHit(scene, [120, 115], 2), image, 'inside, far from its edges');
  assert.equal(pointHit(scene, [139, 129], 0), image);
  assert.equal(pointHit(scene, [145, 115], 2), null, 'outside');
  assert.deepEqual(boxHits(scene, { minX: 95, minY: 95, maxX: 145, maxY: 135 }), [image]);
  assert.deepEqual(boxHits(scene, { minX: 95, minY: 95, maxX: 135, maxY: 135 }), [], 'a box around part of it takes nothing');
  assert.deepEqual(boxHits(scene, { minX: -10, minY: -10, maxX: 200, maxY: 200 }), [image, stroke].sort());
  const aroundMiddle = [[110, 105], [130, 105], [130, 125], [110, 125]];
  assert.deepEqual(lassoHits(scene, aroundMiddle), [image], 'a loop around its middle');
  assert.deepEqual(selectionBounds([session.board.stroke(image)]), { minX: 100, minY: 100, maxX: 140, maxY: 130 });
});

test('the partial eraser passes over an image; the stroke eraser takes it whole; the text tool never edits it', () => {
  const context = toolContext();
  const { session, scene } = context;
  const image = addImage(session, [100, 100]);
  const across = [[80, 115], [160, 115]];
  const { cuts } = partialCuts(scene, across, 4);
  assert.equal(cuts.size, 0);
  assert.deepEqual(eraseOperations(new Map([[image, [[0, 1]]]]), session.board), [], 'no erase is aimed at an image');
  assert.deepEqual(strokeHits(scene, across, 4), [image]);
  assert.deepEqual(strokeHits(scene, [[120, 115]], 1), [image], 'a tap inside');
  assert.deepEqual(strokeHits(scene, [[200, 200]], 4), []);
  assert.equal(boxAt(scene, [120, 115], 2), null, 'an image is no text box');
});

test('an image is painted with its pixels in its box under its transform, a grey box until they come', () => {
  const context = toolContext();
  const { session, scene } = context;
  const id = addImage(session, [10, 20], PHOTO, [2, 0, 0, 2, 5, 5]);
  const pixels = { width: 40, height: 30, tag: 'pixels' };
  const ctx = recordingContext();
  paintStrokes(ctx, [scene.stroke(id)], () => '#000', 1, (stroke) => (stroke.image.blob === BLOB ? pixels : null));
  const names = ctx.calls.map((call) => call[0]);
  assert.deepEqual(ctx.calls.find((call) => call[0] === 'transform'), ['transform', 2, 0, 0, 2, 5, 5]);
  assert.deepEqual(ctx.calls.find((call) => call[0] === 'drawImage'), ['drawImage', pixels, 10, 20, 40, 30]);
  assert.ok(names.indexOf('save') < names.indexOf('drawImage') && names.indexOf('drawImage') < names.indexOf('restore'));
  const waiting = recordingContext();
  paintStrokes(waiting, [scene.stroke(id)], () => '#000');
  assert.deepEqual(waiting.calls.find((call) => call[0] === 'fillRect'), ['fillRect', 10, 20, 40, 30]);
  assert.ok(waiting.calls.some((call) => call[0] === '=fillStyle' && call[1] === '#e5e7eb'));
  assert.ok(!waiting.calls.some((call) => call[0] === 'drawImage'));
  // A drag shows it moved, with its pixels.
  const moved = recordingContext();
  paintStroke(moved, { ...scene.stroke(id), identity: false }, () => '#000', () => pixels);
  assert.ok(moved.calls.some((call) => call[0] === 'drawImage'));
});

test('the SVG embeds the bytes at hand as Swift does, and marks the rest with its blob', () => {
  const session = new FakeSession();
  const id = addImage(session, [10, 20]);
  const embedded = boardSVG(session.board.strokes(), { imageBytes: () => new Uint8Array([1, 2, 3, 4, 5]) });
  assert.match(embedded, new RegExp(`<image data-stroke="${id}" x="10" y="20" width="40" height="30" preserveAspectRatio="none" href="data:image/png;base64,AQIDBAU="/>`));
  // The view box is the image's box and the margin (Swift's bounds: no width to grow by).
  assert.match(embedded, /viewBox="-6 4 72 62" width="72" height="62"/);
  const missing = boardSVG(session.board.strokes());
  assert.ok(missing.includes(`<rect data-stroke="${id}" data-blob="${BLOB}" x="10" y="20" width="40" height="30" fill="#e5e7eb"/>`));
  assert.ok(!missing.includes('<image'));
  const turned = { id: 'x', points: [[0, 0]], image: PHOTO, transform: [0, 1, -1, 0, 0, 0], width: 40, colour: 0, pressures: null, pieces: [[0, 0]] };
  assert.deepEqual(strokeBounds(/** @type {any} */ (turned)), { minX: -30, minY: 0, maxX: 0, maxY: 40 });
  assert.equal(imageElement(turned, String, ' transform="matrix(0 1 -1 0 0 0)"', null).includes('transform="matrix(0 1 -1 0 0 0)" fill='), true);
});

test('base64 is standard, padded, unbroken, also past one slice of bytes', () => {
  for (const length of [0, 1, 2, 3, 4, 100_000]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 7919) & 0xff);
    assert.equal(base64(bytes), Buffer.from(bytes).toString('base64'), `${length} bytes`);
  }
});

test('an image goes on the clipboard with its blob and box, and only as an image can be', () => {
  const session = new FakeSession();
  const id = addImage(session, [10, 20], PHOTO, [1, 0, 0, 1, 3, 4]);
  const { json, svg } = clipboardPayload([session.board.stroke(id)], { room: 'room-a', imageBytes: () => new Uint8Array([9]) });
  assert.match(svg, /base64,CQ==/);
  const { strokes: [read], room } = readClipboardData(json);
  assert.equal(room, 'room-a');
  assert.deepEqual(read.image, PHOTO);
  assert.deepEqual([read.points, read.pieces, read.transform], [[[10, 20]], [[0, 0]], [1, 0, 0, 1, 3, 4]]);
  const copied = JSON.parse(json).strokes[0];
  const wrong = [
    { image: { ...PHOTO, blob: 'xyz' } },
    { image: { ...PHOTO, type: 'image/svg+xml' } },
    { image: { ...PHOTO, width: 0 } },
    { image: null },
    { image: PHOTO, text: 'hi' },
    { image: PHOTO, points: [[0, 0], [1, 1]], pieces: [[0, 1]] },
  ];
  for (const change of wrong) {
    assert.deepEqual(readClipboard(JSON.stringify({ inkwell: 1, strokes: [{ ...copied, ...change }] })), [], JSON.stringify(change).slice(0, 60));
  }
});

test('images are duplicated and pasted in the same room naming the same blob, the copies selected', () => {
  const context = toolContext();
  const { session, selection } = context;
  const image = addImage(session, [40, 40]);
  selection.set([image]);
  const actions = new SelectionActions(context);
  actions.run('selection:duplicate');
  const [copy] = selection.ids.map((id) => session.board.stroke(id));
  assert.notEqual(copy.id, image);
  assert.deepEqual([copy.image, copy.transform], [PHOTO, [1, 0, 0, 1, 16, 16]]);
  const data = new Map();
  const clipboard = { setData: (type, value) => data.set(type, value), getData: (type) => data.get(type) ?? '' };
  actions.copy(clipboard);
  assert.equal(actions.paste(clipboard), true);
  assert.equal(session.board.images().length, 3);
  assert.equal(selection.size, 1);
  // A colour or a width changes nothing of an image: no change is made for one.
  const changes = session.committed.length;
  actions.recolour(0xe03131ff);
  actions.setWidth(12);
  assert.equal(session.committed.length, changes);
});

test('images pasted from another room are uploaded here first, under this room’s name for them', async () => {
  const from = toolContext();
  addImage(from.session, [40, 40]);
  from.session.room = 'room-a';
  from.selection.set(from.session.board.strokes().map((stroke) => stroke.id));
  const data = new Map();
  const clipboard = { setData: (type, value) => data.set(type, value), getData: (type) => data.get(type) ?? '' };
  new SelectionActions(from).copy(clipboard);
  assert.match(data.get(STROKES_TYPE), /"room":"room-a"/);

  const to = toolContext();
  to.session.room = 'room-b';
  const rehomed = [];
  const here = 'cd'.repeat(32);
  let done;
  const placed = new Promise((resolve) => (done = resolve));
  const actions = new SelectionActions(to, {
    rehome: async (strokes) => {
      rehomed.push(...strokes);
      queueMicrotask(done);
      return strokes.map((stroke) => ({ ...stroke, image: { ...stroke.image, blob: here, bytes: 33 } }));
    },
  });
  assert.equal(actions.paste(clipboard), true);
  await placed;
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(rehomed.length, 1);
  const [pasted] = to.session.board.images();
  assert.deepEqual([pasted.blob, pasted.bytes], [here, 33]);
  assert.deepEqual(to.selection.ids, [pasted.id]);

  // Without a way to upload them, strokes from elsewhere come without their images.
  const bare = toolContext();
  bare.session.room = 'room-c';
  assert.equal(new SelectionActions(bare).paste(clipboard), true);
  assert.equal(bare.session.board.images().length, 0);
});

test('the history says a change added an image', () => {
  const change = (operations) => ({ id: { replica: 'a', seq: 1 }, stamp: { wall: 0, counter: 0 }, operations });
  assert.equal(describeChange(change([{ op: 'addImage' }])), 'added an image');
  assert.equal(describeChange(change([{ op: 'addImage' }, { op: 'set', attribute: 'transform' }])), 'added an image');
});
