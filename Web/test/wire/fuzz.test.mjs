// Hostile bytes: random and mutated real encodings never make a decoder throw anything but WireError,
// and whatever decodes re-encodes and decodes again to the same value. Mutated packs almost never get
// past their signature, so a second run mutates a pack's unsigned bytes and signs them again: what lies
// behind the signature is fuzzed too. The seed is printed; set INKWELL_SEED to replay a run,
// INKWELL_FUZZ_CASES to change its length.

import assert from 'node:assert/strict';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { signPack } from '../../js/wire/pack-signature.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import { SnapshotAssembly } from '../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { testAuthor } from '../support/keys.mjs';
import { fromHex, loadJSON, mutate, random, randomChange, reauthored, vectorBytes } from './support.mjs';

const CASES = Number(process.env.INKWELL_FUZZ_CASES ?? 20_000);
const SEED = Number(process.env.INKWELL_SEED ?? Math.floor(Math.random() * 2 ** 32));

/** Each decoder, and a check that what it decoded survives encode → decode. */
const DECODERS = [
  ['change', (bytes) => {
    const change = decodeChange(bytes);
    assert.deepEqual(decodeChange(encodeChange(change)), change);
  }],
  ['pack', async (bytes) => {
    const pack = await decodePack(bytes);
    for (const change of pack.changes) {
      try {
        decodeChange(change);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
      }
    }
  }],
  ['snapshot part', async (bytes) => {
    const part = await decodeSnapshotPart(bytes);
    try {
      new SnapshotAssembly(part).assembled();
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
    }
  }],
  ['client frame', (bytes) => {
    const frame = decodeClientFrame(bytes);
    assert.deepEqual(decodeClientFrame(encodeClientFrame(frame)), frame);
  }],
  ['server frame', (bytes) => {
    const frame = decodeServerFrame(bytes);
    assert.deepEqual(decodeServerFrame(encodeServerFrame(frame)), frame);
  }],
  ['points', (bytes) => {
    const ink = decodePoints(bytes);
    assert.deepEqual(decodePoints(encodePoints(ink.points, ink.pressures)), ink);
  }],
];

const author = await testAuthor(0xf0);
/** The refusals a decoder makes before it verifies a signature. */
const BEFORE_SIGNATURE = /^(malformed pack$|pack exceeds its size limit$|field pack\.(author|signature|room) )/;

/** Signed packs of this code's, of a few shapes, to mutate. */
async function signedSeeds() {
  const rng = random(7);
  const packs = [];
  for (const [count, compression] of [[0, 'none'], [1, 'none'], [5, 'deflate'], [3, 'none']]) {
    const changes = Array.from({ length: count }, () => reauthored(randomChange(rng), author.replica));
    packs.push(await encodePack({ room: 'room-a', changes }, author.keys, { compression }));
  }
  return packs;
}

test(`${CASES} random and mutated inputs throw only WireError (INKWELL_SEED=${SEED})`, async (t) => {
  console.log(`wire fuzz: ${CASES} cases, INKWELL_SEED=${SEED}`);
  const wire = loadJSON('wire.json');
  const seeds = [
    ...(await signedSeeds()),
    ...wire.changes.map((vector) => fromHex(vector.bytes)),
    ...wire.packs.map((vector) => fromHex(vector.bytes)),
    ...wire.frames.map((vector) => fromHex(vector.bytes)),
    ...wire.points.map((vector) => fromHex(vector.bytes)),
    ...wire.invalid.filter((vector) => vector.bytes !== undefined).map(vectorBytes),
    ...loadJSON('snapshots.json').parts.map((vector) => fromHex(vector.bytes)),
  ];
  const rng = random(SEED);
  const tally = { decoded: 0, rejected: 0 };
  for (let round = 0; round < CASES; round++) {
    const bytes = mutate(rng.pick(seeds), rng);
    for (const [name, decode] of DECODERS) {
      try {
        await decode(bytes);
        tally.decoded++;
      } catch (error) {
        if (!(error instanceof WireError)) {
          assert.fail(`${name} threw ${error?.stack ?? error} for ${Buffer.from(bytes).toString('hex')} (INKWELL_SEED=${SEED}, round ${round})`);
        }
        tally.rejected++;
      }
    }
  }
  t.diagnostic(`decoded ${tally.decoded}, rejected ${tally.rejected}`);
  assert.ok(tally.decoded > 0 && tally.rejected > 0);
});

test(`mutated packs signed again reach the checks behind the signature, and throw only WireError (INKWELL_SEED=${SEED})`, async (t) => {
  const rng = random(SEED ^ 0x519);
  const unsigned = (await signedSeeds()).map((bytes) => bytes.subarray(0, bytes.length - 66));
  const tally = { decoded: 0, rejected: 0, behind: 0, badSignature: 0 };
  for (let round = 0; round < Math.ceil(CASES / 10); round++) {
    const bytes = await signPack(mutate(rng.pick(unsigned), rng), author.keys);
    try {
      const pack = await decodePack(bytes);
      assert.equal(pack.replica, author.replica);
      for (const change of pack.changes) {
        try {
          decodeChange(change);
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
        }
      }
      tally.decoded++;
    } catch (error) {
      if (!(error instanceof WireError)) {
        assert.fail(`decodePack threw ${error?.stack ?? error} for ${Buffer.from(bytes).toString('hex')} (INKWELL_SEED=${SEED}, round ${round})`);
      }
      // A mutation of the author's key is the one way such a pack fails its signature.
      if (error.code === 'badSignature') tally.badSignature++;
      else if (!BEFORE_SIGNATURE.test(error.message)) tally.behind++;
      tally.rejected++;
    }
  }
  t.diagnostic(`decoded ${tally.decoded}, rejected ${tally.rejected}: ${tally.behind} behind the signature, ${tally.badSignature} for a mutated key`);
  assert.ok(tally.decoded > 0 && tally.behind > 0);
});

test(`mutated snapshot parts signed again throw only WireError, and whatever decodes lies inside its cut (INKWELL_SEED=${SEED})`, async (t) => {
  const rng = random(SEED ^ 0x5a9);
  const vectors = loadJSON('snapshots.json').parts.filter((vector) => vector.key === undefined);
  const signer = await testAuthor(vectors[0].seed);
  const unsigned = vectors.map((vector) => fromHex(vector.bytes).subarray(0, fromHex(vector.bytes).length - 66));
  const tally = { decoded: 0, rejected: 0 };
  for (let round = 0; round < Math.ceil(CASES / 20); round++) {
    const bytes = await signPack(mutate(rng.pick(unsigned), rng), signer.keys);
    try {
      const part = await decodeSnapshotPart(bytes);
      assert.equal(part.replica, signer.replica);
      try {
        new SnapshotAssembly(part).assembled();
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
      }
      tally.decoded++;
    } catch (error) {
      if (!(error instanceof WireError)) {
        assert.fail(`decodeSnapshotPart threw ${error?.stack ?? error} for ${Buffer.from(bytes).toString('hex')} (INKWELL_SEED=${SEED}, round ${round})`);
      }
      tally.rejected++;
    }
  }
  t.diagnostic(`decoded ${tally.decoded}, rejected ${tally.rejected}`);
  assert.ok(tally.rejected > 0);
});

test('bytes fed one at a time (every prefix) decode or throw WireError', async () => {
  const wire = loadJSON('wire.json');
  for (const vector of [...wire.changes.slice(0, 10), ...wire.frames]) {
    const bytes = fromHex(vector.bytes);
    for (let length = 0; length <= bytes.length; length++) {
      for (const [, decode] of DECODERS) {
        for (const part of [bytes.subarray(length), bytes.slice(0, length)]) {
          try {
            await decode(part);
          } catch (error) {
            if (!(error instanceof WireError)) throw error;
          }
        }
      }
    }
  }
});
