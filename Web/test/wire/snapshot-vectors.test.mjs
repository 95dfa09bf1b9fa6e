// Conformance/snapshots.json, made by Swift: snapshot parts decode to their cover and changes (plain and
// sealed), refused parts fail with Swift's words, whole snapshots assemble to Swift's changes or fail as
// Swift's did, and snapshot checks sign to Swift's very bytes (Ed25519 is deterministic).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { decodePack } from '../../js/wire/pack.js';
import { signPack } from '../../js/wire/pack-signature.js';
import { openRoomKey } from '../../js/wire/room-key.js';
import { SnapshotAssembly } from '../../js/wire/snapshot-assembly.js';
import { signSnapshotCheck, snapshotCheckInput, snapshotCheckSigner } from '../../js/wire/snapshot-check.js';
import { decodeSnapshotPart, encodeSnapshotPart } from '../../js/wire/snapshot-part.js';
import { testAuthor } from '../support/keys.mjs';
import { fromHex, loadJSON, toHex } from './support.mjs';

const vectors = loadJSON('snapshots.json');

/** A room key from a vector's hex. @param {string | undefined} hex */
const roomKey = (hex) => (hex === undefined ? null : openRoomKey(fromHex(hex)));

/** A decoded cover in the JSON of the vector file. @param {import('../../js/wire/snapshot-cover.js').SnapshotCover} cover */
function coverJSON({ id, position, cut, part, parts }) {
  const entries = [...cut.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    cut: entries.map(([replica, { seq, stamp }]) => ({ replica, seq, stamp: ((BigInt(stamp.wall) << 16n) | BigInt(stamp.counter)).toString() })),
    id: toHex(id),
    part,
    parts,
    position,
  };
}

test('the file is the one this test reads', () => {
  assert.equal(vectors.format, 'inkwell-snapshot-conformance/1');
  assert.ok(vectors.parts.length >= 3 && vectors.refusedParts.length >= 9 && vectors.assemblies.length >= 8 && vectors.checks.length >= 2);
});

test('parts made by Swift verify and decode to their cover and changes, and sign the same here', async () => {
  for (const vector of vectors.parts) {
    const bytes = fromHex(vector.bytes);
    const part = await decodeSnapshotPart(bytes, { room: vector.room, roomKey: await roomKey(vector.key) });
    assert.deepEqual(coverJSON(part.cover), vector.cover, vector.name);
    assert.deepEqual(part.changes.map(toHex), vector.changes, vector.name);
    assert.equal(toHex(part.id), vector.id, `${vector.name}: the id`);
    assert.equal(toHex(part.id), createHash('sha256').update(bytes).digest('hex'), `${vector.name}: the SHA-256 of its bytes`);
    assert.equal(part.replica, vector.replica, vector.name);
    assert.equal(part.sealed, vector.key !== undefined, vector.name);
    const author = await testAuthor(vector.seed);
    assert.equal(toHex(await signPack(bytes.subarray(0, bytes.length - 66), author.keys)), vector.bytes, `${vector.name}: signed again`);
    // What this code writes from the same cover and changes reads back the same.
    const again = await encodeSnapshotPart({ room: part.room, cover: part.cover, changes: part.changes }, author.keys, { roomKey: await roomKey(vector.key) });
    const reread = await decodeSnapshotPart(again, { room: vector.room, roomKey: await roomKey(vector.key) });
    assert.deepEqual([coverJSON(reread.cover), reread.changes.map(toHex)], [vector.cover, vector.changes], `${vector.name}: encoded here`);
  }
});

test('a pack decoder refuses a snapshot part, and a part decoder refuses a pack, each after the signature', async () => {
  const [plain] = vectors.parts;
  await assert.rejects(decodePack(fromHex(plain.bytes), { room: plain.room }), (error) => error instanceof WireError && error.code === 'snapshotPart');
  const { packs } = loadJSON('wire.json');
  const pack = packs.find((vector) => vector.understanding === undefined);
  await assert.rejects(decodeSnapshotPart(fromHex(pack.bytes), { room: pack.room }), (error) => error instanceof WireError && error.code === 'notSnapshot');
  // A part altered anywhere is a bad signature before its cover is read.
  const altered = fromHex(plain.bytes);
  altered[altered.length - 80] ^= 1;
  await assert.rejects(decodeSnapshotPart(altered, { room: plain.room }), (error) => error.code === 'badSignature' || error.code === 'malformed');
});

test('every refused part of snapshots.json fails with the words Swift used', async () => {
  for (const vector of vectors.refusedParts) {
    await assert.rejects(
      decodeSnapshotPart(fromHex(vector.bytes), { room: vector.room, roomKey: await roomKey(vector.key) }),
      (error) => error instanceof WireError && error.message === vector.error,
      vector.name,
    );
  }
});

test('whole snapshots assemble to the changes Swift found, in order, or fail as Swift’s did', async () => {
  for (const vector of vectors.assemblies) {
    let outcome;
    try {
      /** @type {SnapshotAssembly | null} */
      let assembly = null;
      for (const hex of vector.parts) {
        const part = await decodeSnapshotPart(fromHex(hex), { room: vector.room });
        if (assembly === null) assembly = new SnapshotAssembly(part);
        else assembly.add(part);
      }
      const snapshot = /** @type {SnapshotAssembly} */ (assembly).assembled();
      outcome = { changes: snapshot.changes.map(toHex), position: snapshot.position };
    } catch (error) {
      assert.ok(error instanceof WireError, `${vector.name}: ${error}`);
      outcome = { error: error.message };
    }
    const expected = vector.error === undefined ? { changes: vector.changes, position: vector.position } : { error: vector.error };
    assert.deepEqual(outcome, expected, vector.name);
  }
});

test('parts arrive in any order and with repeats; a repeat is no news', async () => {
  const whole = vectors.assemblies.find((vector) => vector.error === undefined && vector.parts.length > 1);
  const parts = await Promise.all(whole.parts.map((hex) => decodeSnapshotPart(fromHex(hex), { room: whole.room })));
  const assembly = new SnapshotAssembly(parts[parts.length - 1]);
  assert.equal(assembly.add(parts[parts.length - 1]), false);
  for (const part of parts.slice(0, -1).reverse()) assert.equal(assembly.add(part), true);
  assert.equal(assembly.isComplete, true);
  assert.deepEqual(assembly.assembled().changes.map(toHex), whole.changes, 'in the order of the parts, not of arrival');
});

test('snapshot checks: the signed input and the signature are Swift’s byte for byte, and verify', async () => {
  for (const vector of vectors.checks) {
    const snapshot = fromHex(vector.snapshot);
    assert.equal(toHex(snapshotCheckInput(vector.room, snapshot)), vector.signingInput, vector.name);
    const author = await testAuthor(vector.seed);
    const check = await signSnapshotCheck(vector.room, snapshot, author.keys);
    assert.equal(toHex(check.author), vector.author, vector.name);
    assert.equal(toHex(check.signature), vector.signature, vector.name);
    assert.equal(await snapshotCheckSigner(check), vector.verifies ? author.replica : null, vector.name);
    assert.equal(await snapshotCheckSigner({ ...check, room: 'room-b' }), null, `${vector.name}: not for another room`);
    assert.equal(await snapshotCheckSigner({ ...check, snapshot: new Uint8Array(16) }), null, `${vector.name}: not for another snapshot`);
  }
});
