// Property tests from a printed seed: whatever the codecs encode decodes to the same value, and encoding
// is a function of the value (decode → encode gives the same bytes).

import assert from 'node:assert/strict';
import test from 'node:test';
import { fromHex, toHex } from '../../js/wire/bytes.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { decodeOperation, encodeOperation } from '../../js/wire/operation.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { packId } from '../../js/wire/pack-id.js';
import { decodePoints, encodePoints, gridScale, pointsFromResiduals, residuals } from '../../js/wire/points.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { testAuthor } from '../support/keys.mjs';
import { random, randomChange, reauthored } from './support.mjs';

const SEED = Number(process.env.INKWELL_SEED ?? Math.floor(Math.random() * 2 ** 32));

test(`random changes round-trip exactly (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED);
  for (let round = 0; round < 2_000; round++) {
    const change = randomChange(rng);
    const bytes = encodeChange(change);
    const decoded = decodeChange(bytes);
    assert.deepEqual(decoded, change, `round ${round}, INKWELL_SEED=${SEED}`);
    assert.deepEqual(encodeChange(decoded), bytes);
  }
});

test(`settles round-trip exactly, those the board ignores too (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0x5e771e);
  const seq = () => [0, 1, 2 ** 53 - 1, 1 + rng.below(1_000_000)][rng.below(4)];
  for (let round = 0; round < 500; round++) {
    const change = randomChange(rng);
    const settle = { op: 'settle', through: seq(), inactive: Array.from({ length: rng.below(6) }, seq) };
    change.operations.splice(rng.below(change.operations.length + 1), 0, settle);
    const bytes = encodeChange(change);
    const decoded = decodeChange(bytes);
    assert.deepEqual(decoded, change, `round ${round}, INKWELL_SEED=${SEED}`);
    assert.deepEqual(encodeChange(decoded), bytes);
  }
});

test('a settle is field 8 of an operation, its inactive seqs packed; unpacked ones read the same', () => {
  const replica = new Uint8Array(16).fill(0xa1);
  const settle = { op: 'settle', through: 299, inactive: [3, 3, 200] };
  assert.equal(toHex(encodeOperation(settle, replica)), '420908ab0212040303c801');
  assert.deepEqual(decodeOperation(fromHex('420908ab0212040303c801'), replica), settle);
  const unpacked = decodeOperation(fromHex('4206080510031004'), replica);
  assert.deepEqual(unpacked, { op: 'settle', through: 5, inactive: [3, 4] });
  assert.equal(toHex(encodeOperation(unpacked, replica)), '4206080512020304');
  assert.equal(toHex(encodeOperation({ op: 'settle', through: 0, inactive: [] }, replica)), '4200');
  assert.deepEqual(decodeOperation(fromHex('4200'), replica), { op: 'settle', through: 0, inactive: [] });
});

test('points go on the coarsest power-of-two grid that holds them, as in Swift', () => {
  assert.equal(gridScale([[3, 4], [5, -6]]), 1);
  assert.equal(gridScale([[0.5, 4]]), 2);
  assert.equal(gridScale([[0.125, 4]]), 8);
  assert.equal(gridScale([[1 / 1024, 0]]), 1024);
  assert.equal(gridScale([[1 / 2048, 0]]), null);
  assert.equal(gridScale([[0.1, 4]]), null);
  assert.equal(gridScale([[2 ** 52, 0]]), null, 'beyond 2^52 steps is not quantised');
  assert.equal(gridScale([[2 ** 52 - 1, 0]]), 1);
  assert.equal(gridScale([]), 1);
  assert.equal(gridScale([[NaN, 0]]), null);
  assert.equal(gridScale([[Infinity, 0]]), null);
});

test(`residuals are exact beyond 2^53 and decode back on the board (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0x5eed);
  for (let round = 0; round < 500; round++) {
    const huge = round % 2 === 0;
    const points = Array.from({ length: 1 + rng.below(20) }, () =>
      huge
        ? [(rng.below(2 ** 21) * 2 ** 30 + rng.below(2 ** 30)) * (rng.below(2) ? 1 : -1), rng.below(100)]
        : [rng.below(2 ** 31) - 2 ** 30, rng.below(2 ** 31) - 2 ** 30],
    );
    const reference = [];
    const steps = points.map(([x, y]) => [BigInt(x), BigInt(y)]);
    steps.forEach(([x, y], index) => {
      if (index === 0) reference.push(x, y);
      else if (index === 1) reference.push(x - steps[0][0], y - steps[0][1]);
      else reference.push(x - (2n * steps[index - 1][0] - steps[index - 2][0]), y - (2n * steps[index - 1][1] - steps[index - 2][1]));
    });
    const computed = residuals(points, 1).map(BigInt);
    assert.deepEqual(computed, reference);
    const onBoard = points.every(([x, y]) => Math.abs(x) <= 1e9 && Math.abs(y) <= 1e9);
    if (onBoard) assert.deepEqual(pointsFromResiduals(residuals(points, 1), 1), points);
    else assert.throws(() => pointsFromResiduals(residuals(points, 1), 1), WireError);
  }
});

test(`ink points round-trip (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0x1eaf);
  for (let round = 0; round < 1_000; round++) {
    const scale = [1, 8, 1024, 0][rng.below(4)];
    const points = Array.from({ length: rng.below(50) }, () => [
      scale ? rng.below(20_000) / scale - 10 : rng.next() * 1000,
      scale ? rng.below(20_000) / scale - 10 : rng.next() * -1000,
    ]);
    const pressures = rng.below(2) ? null : points.map(() => Math.fround(rng.below(2) ? rng.below(256) / 255 : rng.next()));
    const decoded = decodePoints(encodePoints(points, pressures));
    assert.deepEqual(decoded, { points, pressures: pressures?.length ? pressures : null });
  }
});

test(`random frames of every type round-trip (INKWELL_SEED=${SEED})`, () => {
  const rng = random(SEED ^ 0xf4a);
  const room = () => rng.pick(['room', 'Room_1.b-c', 'x'.repeat(128)]);
  const presence = () => ({
    type: 'presence',
    room: room(),
    device: rng.bytes(16),
    name: rng.pick(['', 'Alice', 'Zoë ✏️']),
    colour: rng.below(2 ** 32),
    ...(rng.below(2) ? { cursorX: rng.next() * 1e4, cursorY: -rng.next(), hasCursor: true } : { cursorX: 0, cursorY: 0, hasCursor: false }),
    ...(rng.below(2)
      ? { board: 'main', ink: { colour: rng.below(2 ** 32), width: rng.below(40) / 4, points: encodePoints([[1, 2], [3, 4]]) } }
      : { board: '', ink: null }),
  });
  const counter = () => rng.pick([0, 1, rng.below(2 ** 31), Number.MAX_SAFE_INTEGER]);
  for (let round = 0; round < 500; round++) {
    const client = [
      { type: 'hello', protocolVersion: rng.below(5), minimumProtocolVersion: rng.below(5), device: rng.bytes(16), agent: 'inkwell-web' },
      { type: 'subscribe', room: room(), after: counter() },
      { type: 'unsubscribe', room: room() },
      { type: 'push', room: room(), pack: rng.bytes(1 + rng.below(100)) },
      presence(),
      { type: 'snapshotChecked', room: room(), snapshot: rng.bytes(16), author: rng.bytes(32), signature: rng.bytes(64) },
    ];
    const server = [
      { type: 'welcome', protocolVersion: 2, server: rng.bytes(16), limits: { maxFrameBytes: rng.below(2 ** 32), maxMessageBytes: rng.below(9), maxPackBodyBytes: rng.below(9) }, serverTime: counter() },
      { type: 'ack', room: room(), packId: rng.bytes(32), serverSeq: counter() },
      { type: 'packs', room: room(), packs: Array.from({ length: rng.below(4) }, () => ({ serverSeq: counter(), pack: rng.bytes(rng.below(40)) })), head: counter() },
      { type: 'packs', room: room(), packs: [{ serverSeq: counter(), pack: rng.bytes(rng.below(40)) }], head: counter(), rebase: 1 + rng.below(2 ** 31) },
      presence(),
      { type: 'presences', presences: Array.from({ length: 1 + rng.below(3) }, presence) },
      { type: 'progress', room: room(), head: counter(), bytesBehind: counter(), packsBehind: counter() },
      { type: 'error', code: rng.below(600), message: 'no such room', fatal: rng.below(2) === 0, room: rng.pick(['', 'room']) },
    ];
    for (const frame of client) {
      const bytes = encodeClientFrame(frame);
      assert.deepEqual(decodeClientFrame(bytes), frame, `${frame.type}, INKWELL_SEED=${SEED}`);
      assert.deepEqual(encodeClientFrame(decodeClientFrame(bytes)), bytes);
    }
    for (const frame of server) {
      const bytes = encodeServerFrame(frame);
      assert.deepEqual(decodeServerFrame(bytes), frame, `${frame.type}, INKWELL_SEED=${SEED}`);
      assert.deepEqual(encodeServerFrame(decodeServerFrame(bytes)), bytes);
    }
  }
});

const author = await testAuthor(0x5e);

test(`packs round-trip with and without compression (INKWELL_SEED=${SEED})`, async () => {
  const rng = random(SEED ^ 0xbac);
  for (let round = 0; round < 40; round++) {
    const changes = Array.from({ length: rng.below(60) }, () => reauthored(randomChange(rng), author.replica));
    for (const compression of ['deflate', 'none']) {
      const bytes = await encodePack({ room: 'room-a', changes }, author.keys, { compression });
      const pack = await decodePack(bytes, { room: 'room-a' });
      assert.deepEqual(pack.id, await packId(bytes));
      assert.equal(pack.schemaVersion, 1);
      assert.equal(pack.replica, author.replica);
      assert.deepEqual(pack.changes.map((change) => decodeChange(change)), changes, `INKWELL_SEED=${SEED}`);
    }
  }
});

test('a change kept aside from a newer schema travels in a pack as it is', async () => {
  const change = reauthored(randomChange(random(SEED)), author.replica);
  const bytes = encodeChange(change);
  const future = Uint8Array.from([...bytes.slice(0, bytes.length), 0x28, 0x02]); // schema_version 2, after the first
  const pack = await encodePack({ room: 'room', changes: [future] }, author.keys);
  await assert.rejects(decodePack(pack), (error) => error.code === 'futureSchema' && error.schemaVersion === 2);
  assert.deepEqual((await decodePack(pack, { schema: 2 })).changes[0], future);
});
