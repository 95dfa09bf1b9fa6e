// The cases of Conformance/wire-js.json: bytes made by the browser's codec, with the JSON they encode.
// Swift's WireVectorTests decodes every one with the real Swift codecs (see write-js-vectors.mjs).
//
// Packs are signed with keys made from fixed seeds (`authorKeys`), so the file is the same every run
// (deflate aside, see js-vectors.test.mjs): Swift checks each seed's public key and replica, verifies
// every pack, and re-signs the unsigned bytes of each to the same signature.

import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { testAuthor } from '../support/keys.mjs';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import {
  decodeClientFrame,
  decodeServerFrame,
  encodeClientFrame,
  encodeServerFrame,
} from '../../js/wire/sync.js';
import { fromHex, loadJSON, random, randomChange, reauthored, toHex, toJSONShape } from './support.mjs';

const ALICE = 'a11ce000000000010000000000000000';
const BOB = 'b0b00000000000020000000000000000';

/** Hand-picked changes: every operation kind and the encodings' corners. */
function namedChanges() {
  const change = (seq, operations, extra = {}) => ({
    id: { replica: ALICE, seq },
    stamp: { wall: 1_800_000_000_000 + seq, counter: seq % 5 },
    board: 'main',
    operations,
    ...extra,
  });
  const wave = Array.from({ length: 16 }, (_, i) => [Math.round(i * 3.3 * 8) / 8, Math.round((100 + 40 * Math.sin(i / 5)) * 8) / 8]);
  return [
    ['stroke on the 1/8 px grid', change(1, [{ op: 'addStroke', colour: 0x123456ff, width: 2.5, points: wave, pressures: null }])],
    [
      'pressure bytes and raw pressures',
      change(2, [
        { op: 'addStroke', colour: 0, width: 1, points: [[0, 0], [1, 1]], pressures: [Math.fround(51 / 255), 1] },
        { op: 'addStroke', colour: 1, width: 1, points: [[0, 0], [1, 1]], pressures: [Math.fround(0.3), Math.fround(0.123)] },
      ]),
    ],
    ['raw off-grid points', change(3, [{ op: 'addStroke', colour: 7, width: 3, points: [[0.1, 0.2], [1e-7, -3], [Math.PI, 1 / 3]], pressures: null }])],
    ['sub-pixel grid of 1/1024 px', change(4, [{ op: 'addStroke', colour: 7, width: 3, points: [[1 / 1024, 0], [3.5, -7 / 1024]], pressures: null }])],
    ['coordinates at the edge of the board', change(5, [{ op: 'addStroke', colour: 7, width: 3, points: [[-1e9, 1e9], [1e9, -1e9], [0, 0]], pressures: null }])],
    [
      'append, own and foreign strokes, a 64-bit seq',
      change(6, [
        { op: 'appendPoints', stroke: `${ALICE}-1-0`, points: [[200, 100.125]], pressures: [1] },
        { op: 'appendPoints', stroke: `${BOB}-1152921504606846976-3`, points: [[1, 2]], pressures: null },
      ]),
    ],
    ['erase', change(7, [{ op: 'erase', stroke: `${BOB}-7-2`, intervals: [[1.25, 3.0625], [7, 9.5], [-0.5, 0.5]] }])],
    [
      'set every attribute, zero values included',
      change(8, [
        { op: 'set', stroke: `${ALICE}-1-0`, attribute: 'colour', value: 0xff000080 },
        { op: 'set', stroke: `${BOB}-7-2`, attribute: 'width', value: 0 },
        { op: 'set', stroke: `${ALICE}-1-0`, attribute: 'transform', value: [1, 0.5, -0.5, 1, 1e300, -3.25e-300] },
        { op: 'set', stroke: `${ALICE}-1-0`, attribute: 'zOrder', value: 0 },
        { op: 'set', stroke: `${BOB}-7-2`, attribute: 'deleted', value: false },
      ]),
    ],
    [
      'undo, redo, clear and an unknown kind',
      change(9, [
        { op: 'undo', change: { replica: ALICE, seq: 3 } },
        { op: 'redo', change: { replica: ALICE, seq: 3 } },
        { op: 'clear' },
        { op: 'unknown', kind: 42, bytes: Uint8Array.from([0xd2, 0x02, 0x03, 1, 2, 3]) },
      ]),
    ],
    [
      'unicode board, largest stamp and safe seq',
      {
        id: { replica: BOB, seq: Number.MAX_SAFE_INTEGER },
        stamp: { wall: 2 ** 48 - 1, counter: 65535 },
        board: 'pâge ✏️',
        operations: [{ op: 'clear' }],
      },
    ],
    ['empty stroke', change(10, [{ op: 'addStroke', colour: 0, width: 0, points: [], pressures: null }])],
  ];
}

/** The changes of Conformance/board.json (first copy of each id) and seeded random ones. */
function changes() {
  const board = loadJSON('board.json');
  const seen = new Set();
  const fromBoard = [];
  for (const testCase of board.cases.slice(0, 12)) {
    for (const change of testCase.changes) {
      const key = `${change.id.replica}:${change.id.seq}`;
      if (!seen.has(key)) fromBoard.push([`board.json: ${testCase.name} #${fromBoard.length}`, change]);
      seen.add(key);
    }
  }
  const rng = random(20240601);
  const randomOnes = Array.from({ length: 40 }, (_, index) => [`random #${index}`, randomChange(rng)]);
  return [...namedChanges(), ...fromBoard, ...randomOnes].map(([name, change]) => {
    const bytes = encodeChange(change);
    return { name, json: toJSONShape(decodeChange(bytes)), bytes: toHex(bytes) };
  });
}

function points() {
  const cases = [
    ['grid', [[0, 0], [1.5, 2], [3, 4.125]], null],
    ['raw', [[0.1, 0.2], [-1e-9, 7]], null],
    ['pressure bytes', [[1, 1], [2, 3]], [Math.fround(102 / 255), 1]],
    ['raw pressures', [[1, 1], [2, 3]], [Math.fround(0.4), 1]],
    ['no points', [], null],
  ];
  return cases.map(([name, list, pressures]) => {
    const bytes = encodePoints(list, pressures);
    return { name, json: decodePoints(bytes), bytes: toHex(bytes) };
  });
}

/** The seeds the packs are signed with: a byte repeated, and RFC 8032's first test key. */
const SEEDS = ['01'.repeat(32), 'a1'.repeat(32), '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'];

/** Each seed's public key and the replica it owns. */
async function authorKeys() {
  return Promise.all(
    SEEDS.map(async (seed) => {
      const author = await testAuthor(seed);
      return { seed, publicKey: toHex(author.publicKey), replica: author.replica };
    }),
  );
}

/** Changes of the vectors, each made again by the seed's replica: a pack holds its author's changes only. */
async function packs(changeVectors) {
  const rooms = ['room-a', 'room-b', 'Room_1.x'];
  const result = [];
  let offset = 0;
  for (const [index, compression] of ['deflate', 'none', 'deflate', 'deflate', 'none'].entries()) {
    const count = [6, 6, 0, 30, 1][index];
    const room = rooms[index % rooms.length];
    const seed = SEEDS[index % SEEDS.length];
    const author = await testAuthor(seed);
    const selected = changeVectors
      .slice(offset, offset + count)
      .map((vector) => encodeChange(reauthored(decodeChange(fromHex(vector.bytes)), author.replica)));
    offset += count;
    const bytes = await encodePack({ room, changes: selected }, author.keys, { compression });
    const pack = await decodePack(bytes, { room });
    result.push({
      name: `${compression}, ${count} changes`,
      room,
      compression,
      seed,
      publicKey: toHex(pack.author),
      replica: pack.replica,
      changes: pack.changes.map((change) => toJSONShape(decodeChange(change))),
      id: toHex(pack.id),
      bytes: toHex(bytes),
    });
  }
  return result;
}

/** @param {number} count @param {number} byte */
const filled = (count, byte) => new Uint8Array(count).fill(byte);

function frames() {
  const device = fromHex(ALICE);
  const server = fromHex(BOB);
  const ink = { colour: 0x204060ff, width: 3.5, points: encodePoints([[1, 1], [2, 2], [3, 4]]) };
  const presence = (extra) => ({
    type: 'presence',
    room: 'room-a',
    device,
    name: 'Alice',
    colour: 0xff0000ff,
    cursorX: 0,
    cursorY: 0,
    hasCursor: false,
    board: '',
    ink: null,
    ...extra,
  });
  const client = [
    ['hello', { type: 'hello', protocolVersion: 2, minimumProtocolVersion: 2, device, agent: 'inkwell-web/0.1 ✍' }],
    ['subscribe', { type: 'subscribe', room: 'room-a', after: 0 }],
    ['subscribe after a position', { type: 'subscribe', room: 'room-a', after: Number.MAX_SAFE_INTEGER }],
    ['unsubscribe', { type: 'unsubscribe', room: 'room-a' }],
    ['push', { type: 'push', room: 'room-a', pack: Uint8Array.from([0x0a, 0x10, ...device]) }],
    ['presence', presence({})],
    ['presence with a cursor', presence({ cursorX: 10.5, cursorY: -3, hasCursor: true })],
    ['presence with ink', presence({ board: 'main', ink })],
    [
      'subscribe with a capability',
      { type: 'subscribe', room: 'Kq3Zt0aLw9PxYbN2mR7sVc', after: 12, capability: `e${'Ab-_'.repeat(10)}AbA` },
    ],
    [
      'create a room',
      { type: 'createRoom', room: 'Kq3Zt0aLw9PxYbN2mR7sVc', adminHash: filled(32, 0xa1), editHash: filled(32, 0xe2), viewHash: filled(32, 0x73) },
    ],
    [
      'rotate the edit capability',
      { type: 'rotateCapability', room: 'Kq3Zt0aLw9PxYbN2mR7sVc', adminCapability: `a${'Zz09'.repeat(10)}Zz0`, editHash: filled(32, 0x44), viewHash: new Uint8Array(0) },
    ],
    [
      'rotate both capabilities',
      { type: 'rotateCapability', room: 'room-a', adminCapability: `a${'Zz09'.repeat(10)}Zz0`, editHash: filled(32, 5), viewHash: filled(32, 6) },
    ],
    ['sealed presence', presence({ name: '', colour: 0, sealed: Uint8Array.from({ length: 40 }, (_, i) => i * 7) })],
  ];
  const serverFrames = [
    ['welcome', { type: 'welcome', protocolVersion: 2, server, limits: { maxFrameBytes: 68157440, maxMessageBytes: 0, maxPackBodyBytes: 0 }, serverTime: 1_800_000_000_123 }],
    ['welcome without a server time', { type: 'welcome', protocolVersion: 2, server, limits: { maxFrameBytes: 68157440, maxMessageBytes: 0, maxPackBodyBytes: 0 }, serverTime: 0 }],
    ['ack', { type: 'ack', room: 'room-a', packId: fromHex('ab'.repeat(32)), serverSeq: 7 }],
    ['packs', { type: 'packs', room: 'room-a', packs: [{ serverSeq: 1, pack: Uint8Array.from([0x0a, 0x00]) }], head: 1 }],
    ['presence', presence({ cursorX: 1, cursorY: 2, hasCursor: true, board: 'main', ink })],
    ['presences', { type: 'presences', presences: [presence({}), presence({ room: 'room-b', board: 'main', ink })] }],
    ['progress', { type: 'progress', room: 'room-a', head: 100, bytesBehind: 4096, packsBehind: 3 }],
    ['error', { type: 'error', code: 3, message: 'please update — protocol 1 is too old', fatal: true, room: '' }],
    ['view access', { type: 'access', room: 'room-a', rights: 1, guarded: true }],
    ['edit access to an open room', { type: 'access', room: 'room-a', rights: 2, guarded: false }],
    ['admin access', { type: 'access', room: 'Kq3Zt0aLw9PxYbN2mR7sVc', rights: 3, guarded: true }],
    ['sealed presence', presence({ name: '', colour: 0, sealed: Uint8Array.from({ length: 28 }, (_, i) => 255 - i) })],
  ];
  return [
    ...client.map(([name, frame]) => {
      const bytes = encodeClientFrame(frame);
      return { name, direction: 'client', json: toJSONShape(decodeClientFrame(bytes)), bytes: toHex(bytes) };
    }),
    ...serverFrames.map(([name, frame]) => {
      const bytes = encodeServerFrame(frame);
      return { name, direction: 'server', json: toJSONShape(decodeServerFrame(bytes)), bytes: toHex(bytes) };
    }),
  ];
}

/** Everything in wire-js.json, in a stable order. */
export async function jsVectors() {
  const changeVectors = changes();
  return {
    format: 'inkwell-wire-js/1',
    about:
      'Bytes made by Web/js/wire (node Web/test/wire/write-js-vectors.mjs); Swift must decode each to its JSON ' +
      '(the shapes of wire.json) and, except deflate output, re-encode it byte for byte.',
    changes: changeVectors,
    points: points(),
    authorKeys: await authorKeys(),
    packs: await packs(changeVectors),
    frames: frames(),
  };
}
