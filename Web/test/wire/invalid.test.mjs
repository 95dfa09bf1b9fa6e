// Hostile input: refused with the error Swift reports (Conformance/wire.json `invalid`), and the limits
// and JavaScript-only cases (numbers beyond 2^53, encoder input) checked here.

import assert from 'node:assert/strict';
import test from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { WireError } from '../../js/wire/errors.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { Writer } from '../../js/wire/protobuf.js';
import { SyncProtocol, WireLimits } from '../../js/wire/limits.js';
import { testAuthor } from '../support/keys.mjs';
import { handmadePack, loadJSON, vectorBytes } from './support.mjs';

const DECODERS = {
  change: decodeChange,
  pack: (bytes) => decodePack(bytes),
  clientFrame: decodeClientFrame,
  serverFrame: decodeServerFrame,
  points: decodePoints,
};

/** Asserts `run` throws (or rejects) with a WireError with `message` (and `code`, when given). */
async function rejects(run, message, code, label = message) {
  await assert.rejects(async () => run(), (error) => {
    assert.ok(error instanceof WireError, `${label}: threw ${error}`);
    assert.equal(error.message, message, label);
    if (code !== undefined) assert.equal(error.code, code, label);
    return true;
  });
}

test('every invalid input of wire.json is refused with the error Swift reports', async () => {
  const { invalid } = loadJSON('wire.json');
  assert.ok(invalid.length >= 60);
  for (const vector of invalid) {
    await rejects(() => DECODERS[vector.kind](vectorBytes(vector)), vector.error, undefined, `${vector.kind}: ${vector.name}`);
  }
});

test('every pack of wire.json that fails verification is refused, for the room it was read for, as Swift refuses it', async () => {
  const { refusedPacks } = loadJSON('wire.json');
  assert.ok(refusedPacks.length >= 8);
  for (const vector of refusedPacks) {
    await rejects(() => decodePack(vectorBytes(vector), { room: vector.room }), vector.error, undefined, vector.name);
  }
});

/** A length-delimited field. */
function field(number, bytes) {
  const writer = new Writer();
  writer.tag(number, 2);
  writer.lengthDelimited(bytes);
  return writer.finish();
}

function varintField(number, value) {
  const writer = new Writer();
  writer.tag(number, 0);
  writer.uint64(value);
  return writer.finish();
}

const concat = (...parts) => Uint8Array.from(parts.flatMap((part) => [...part]));
const replica = new Uint8Array(16).fill(0xa1);
const change = { id: { replica: 'a1'.repeat(16), seq: 1 }, stamp: { wall: 1, counter: 0 }, board: 'main', operations: [] };

test('size limits are checked before parsing', async () => {
  await rejects(() => decodeChange(new Uint8Array(WireLimits.maximumChangeBytes + 1)), 'change exceeds its size limit', 'tooLarge');
  await rejects(() => decodePack(new Uint8Array(WireLimits.maximumPackBodyBytes + 1)), 'pack exceeds its size limit', 'tooLarge');
  await rejects(() => decodeServerFrame(new Uint8Array(SyncProtocol.maximumFrameBytes + 1)), 'frame exceeds its size limit', 'tooLarge');
  const points = concat(varintField(1, 1), field(2, new Uint8Array(2 * (WireLimits.maximumPointsPerOperation + 1))));
  await rejects(() => decodePoints(points), 'points exceeds its size limit', 'tooLarge');
});

test('a decompression bomb, honestly signed, costs no more than its declared size', async () => {
  const author = await testAuthor(0xbb);
  const pack = await encodePack({ room: 'room', changes: [{ ...change, id: { replica: author.replica, seq: 1 } }] }, author.keys);
  const bomb = Uint8Array.from(deflateRawSync(Buffer.alloc(50 << 20)));
  const envelope = await handmadePack({ room: 'room', author: author.publicKey, body: bomb, bodySize: 1000, compression: 1 }, author.keys);
  const before = process.memoryUsage().arrayBuffers;
  // It inflates past its declared size: a wrong size, found after at most that many bytes (as libdeflate finds it).
  await rejects(() => decodePack(envelope), 'field pack.body_size is out of range', 'invalidField');
  assert.ok(process.memoryUsage().arrayBuffers - before < 8 << 20, 'nothing near the inflated size was allocated');
  assert.ok((await decodePack(pack)).changes.length === 1);
});

test('64-bit values beyond 2^53 − 1 are refused where they would be Numbers, kept where they can be', async () => {
  const big = 2n ** 60n;
  await rejects(() => decodeClientFrame(field(2, concat(field(1, new TextEncoder().encode('room')), varintField(2, big)))),
    'field subscribe.after does not fit in a JavaScript number', 'unrepresentable');
  const bigSeq = concat(field(1, replica), varintField(2, big), field(4, new TextEncoder().encode('main')));
  await rejects(() => decodeChange(bigSeq), 'field change.seq does not fit in a JavaScript number', 'unrepresentable');
  const bigTime = field(1, concat(varintField(1, 2), field(2, replica), varintField(4, big)));
  await rejects(() => decodeServerFrame(bigTime), 'field welcome.server_time does not fit in a JavaScript number', 'unrepresentable');
  // An undo of a seq beyond 2^53 stays an operation this code keeps but cannot read: unknown, bytes intact.
  const undo = field(5, varintField(1, big));
  const withUndo = concat(field(1, replica), varintField(2, 1), field(4, new TextEncoder().encode('main')), varintField(5, 1), field(6, undo));
  const decoded = decodeChange(withUndo);
  assert.deepEqual(decoded.operations, [{ op: 'unknown', kind: 5, bytes: undo }]);
  assert.deepEqual(encodeChange(decoded), withUndo);
  // So does a settle reaching beyond 2^53, or listing a seq beyond it (no change can carry it well formed).
  for (const settle of [varintField(1, big), concat(varintField(1, 3), varintField(2, big))]) {
    const operation = field(8, settle);
    const board = field(4, new TextEncoder().encode('main'));
    const header = concat(field(1, replica), varintField(2, 1), board, varintField(5, 1));
    const withSettle = concat(header, field(6, operation));
    assert.deepEqual(decodeChange(withSettle).operations, [{ op: 'unknown', kind: 8, bytes: operation }]);
    assert.deepEqual(encodeChange(decodeChange(withSettle)), withSettle);
  }
  // A stroke id is a string, so a 64-bit seq survives in it.
  const append = { op: 'appendPoints', stroke: `${'b2'.repeat(16)}-${big}-1`, points: [[1, 2]], pressures: null };
  assert.deepEqual(decodeChange(encodeChange({ ...change, operations: [append] })).operations, [append]);
});

test('encoders refuse values their fields cannot hold', () => {
  const bad = [
    () => encodeChange({ ...change, id: { replica: 'xyz', seq: 1 } }),
    () => encodeChange({ ...change, id: { replica: 'a1'.repeat(16), seq: 0 } }),
    () => encodeChange({ ...change, stamp: { wall: 2 ** 48, counter: 0 } }),
    () => encodeChange({ ...change, stamp: { wall: 1, counter: 65536 } }),
    () => encodeChange({ ...change, board: '\uD800' }),
    () => encodeChange({ ...change, operations: [{ op: 'addStroke', colour: -1, width: 1, points: [], pressures: null }] }),
    () => encodeChange({ ...change, operations: [{ op: 'addStroke', colour: 1, width: '1', points: [], pressures: null }] }),
    () => encodeChange({ ...change, operations: [{ op: 'erase', stroke: 'not-a-stroke', intervals: [] }] }),
    () => encodeChange({ ...change, operations: [{ op: 'set', stroke: `${'a1'.repeat(16)}-1-0`, attribute: 'size', value: 1 }] }),
    () => encodeChange({ ...change, operations: [{ op: 'paint' }] }),
    () => encodeChange({ ...change, operations: [{ op: 'settle', through: -1, inactive: [] }] }),
    () => encodeChange({ ...change, operations: [{ op: 'settle', through: 1, inactive: [1.5] }] }),
    () => encodeChange({ ...change, operations: [{ op: 'settle', through: 2 ** 53, inactive: [] }] }),
    () => encodeChange({ ...change, operations: [{ op: 'settle', through: 1 }] }),
    () => encodePoints([[1]]),
    () => encodeClientFrame({ type: 'welcome' }),
    () => encodeClientFrame({ type: 'hello', protocolVersion: 1, minimumProtocolVersion: 1, device: new Uint8Array(15), agent: '' }),
    () => encodeClientFrame({ type: 'subscribe', room: 'room', after: -1 }),
    () => encodeServerFrame({ type: 'ack', room: 'room', packId: new Uint8Array(3), serverSeq: 1 }),
    () => encodeServerFrame({ type: 'ack', room: 'room', packId: new Uint8Array(16), serverSeq: 1 }),
  ];
  for (const [index, run] of bad.entries()) {
    assert.throws(run, (error) => error instanceof WireError && error.code === 'invalidField', `case ${index}`);
  }
});

test('errors name what was wrong, never the content', () => {
  try {
    decodeChange(concat(field(1, replica), varintField(2, 1), field(4, new TextEncoder().encode('x'.repeat(300)))));
    assert.fail('should throw');
  } catch (error) {
    assert.equal(error.message, 'field change.document is out of range');
    assert.ok(!error.message.includes('xxx'));
  }
});
