// Signed packs (spec: Protos/inkwell/v1/pack.proto, PackCodec+Signature.swift): WebCrypto's Ed25519 and
// SHA-256 against node:crypto and RFC 8032, the replica a key owns, and every check a decoder makes, in
// its order. Each refusal here is one the old, unsigned format let through.

import assert from 'node:assert/strict';
import { createHash, createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import test from 'node:test';
import { packSigner, replicaOfKey } from '../../js/wire/author-key.js';
import { decodeChange, encodeChange } from '../../js/wire/change.js';
import { WireError } from '../../js/wire/errors.js';
import { decodePack, encodePack, unverifiedPackHeader } from '../../js/wire/pack.js';
import { packId } from '../../js/wire/pack-id.js';
import { signPack } from '../../js/wire/pack-signature.js';
import { Writer } from '../../js/wire/protobuf.js';
import { PKCS8_ED25519_PREFIX, seedBytes, testAuthor } from '../support/keys.mjs';
import { changeOf, fromHex, handmadePack, toHex } from './support.mjs';

// RFC 8032 §7.1, test 1.
const RFC_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

/** node:crypto's own key of a seed: the reference WebCrypto is checked against. */
function nodeKey(seed) {
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from(PKCS8_ED25519_PREFIX), Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  const publicKey = new Uint8Array(createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32));
  return { key, publicKey };
}

/** A signer by node:crypto: the "small signer object" form of a signing key. */
function nodeSigner(seed) {
  const { key, publicKey } = nodeKey(seed);
  return { publicKey, sign: async (message) => new Uint8Array(nodeSign(null, message, key)) };
}

const sha256 = (...parts) => new Uint8Array(createHash('sha256').update(Buffer.concat(parts.map((part) => Buffer.from(part)))).digest());

/** Asserts the promise rejects with a WireError of `code` (and field `detail`, when given). */
async function refuses(promise, code, detail, label = `${code} ${detail ?? ''}`) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof WireError, `${label}: threw ${error}`);
    assert.equal(error.code, code, `${label}: ${error.message}`);
    if (detail !== undefined) assert.equal(error.detail, detail, label);
    return true;
  });
}

const alice = await testAuthor(0xa1);
const bob = await testAuthor(0xb0);
const honest = (seq = 1) => changeOf(alice.replica, seq);

test('WebCrypto Ed25519 and SHA-256 agree with node:crypto and RFC 8032', async () => {
  const rfc = await testAuthor(RFC_SEED);
  assert.equal(toHex(rfc.publicKey), RFC_PUBLIC);
  assert.equal(toHex(nodeKey(seedBytes(RFC_SEED)).publicKey), RFC_PUBLIC);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, rfc.keys.privateKey, new Uint8Array(0)));
  assert.equal(toHex(signature), RFC_SIGNATURE);
  for (const seed of [1, 0xa1, 0xff]) {
    const message = new TextEncoder().encode(`inkwell-pack-signature/1 and then some bytes ${seed}`);
    const web = await packSigner((await testAuthor(seed)).keys);
    const node = nodeKey(seedBytes(seed));
    assert.deepEqual(web.publicKey, node.publicKey, `public key of seed ${seed}`);
    assert.deepEqual(await web.sign(message), new Uint8Array(nodeSign(null, message, node.key)), `signature with seed ${seed}`);
  }
  const bytes = new TextEncoder().encode('abc');
  assert.deepEqual(await packId(bytes), sha256(bytes));
  assert.equal(toHex(await packId(bytes)), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('a replica is the first 16 bytes of SHA-256("inkwell-replica/1" ‖ public key)', async () => {
  assert.equal(await replicaOfKey(fromHex(RFC_PUBLIC)), toHex(sha256(new TextEncoder().encode('inkwell-replica/1'), fromHex(RFC_PUBLIC)).subarray(0, 16)));
  assert.equal(await replicaOfKey(fromHex(RFC_PUBLIC)), 'bf371147f68c981ba86a9695e74bdaea');
  assert.equal(alice.replica, await replicaOfKey(alice.publicKey));
  assert.notEqual(alice.replica, bob.replica);
  await refuses(replicaOfKey(new Uint8Array(31)), 'invalidField', 'pack.author');
});

test('a signed pack round-trips, signed last, with an id that is the SHA-256 of its bytes', async () => {
  for (const compression of ['deflate', 'none']) {
    const changes = [honest(1), honest(2), honest(3)];
    const bytes = await encodePack({ room: 'room-a', changes }, alice.keys, { compression });
    const pack = await decodePack(bytes, { room: 'room-a' });
    assert.deepEqual(pack.changes, changes);
    assert.equal(pack.room, 'room-a');
    assert.deepEqual(pack.author, alice.publicKey);
    assert.equal(pack.replica, alice.replica);
    assert.deepEqual(pack.id, sha256(bytes));
    // unsigned ‖ 0x4A 0x40 ‖ signature, the signature node:crypto verifies over the prefix and the rest
    const end = bytes.length - 66;
    assert.deepEqual([...bytes.subarray(end, end + 2)], [0x4a, 0x40]);
    const signed = Buffer.concat([Buffer.from('inkwell-pack-signature/1'), Buffer.from(bytes.subarray(0, end))]);
    assert.ok(nodeVerify(null, signed, nodeKey(seedBytes(0xa1)).key, bytes.subarray(end + 2)));
    // A signer object with the same key makes the very same bytes: Ed25519 is deterministic.
    assert.deepEqual(await encodePack({ room: 'room-a', changes }, nodeSigner(seedBytes(0xa1)), { compression }), bytes);
    assert.deepEqual(unverifiedPackHeader(bytes), { room: 'room-a', author: alice.publicKey, schemaVersion: 1 });
  }
  const empty = await encodePack({ room: 'room-a', changes: [] }, alice.keys);
  assert.deepEqual((await decodePack(empty)).changes, []);
});

test('entries leave their room out; one naming the envelope’s room is read, another room is refused', async () => {
  const bytes = await encodePack({ room: 'room-a', changes: [honest()] }, alice.keys, { compression: 'none' });
  assert.ok(!Buffer.from(bytes).includes(Buffer.from('room-a\x12')), 'no entry names a room');
  const named = await handmadePack({ author: alice.publicKey, changes: [honest()], entryRoom: 'room-a' }, alice.keys);
  assert.deepEqual((await decodePack(named)).changes, [honest()]);
  const other = await handmadePack({ author: alice.publicKey, changes: [honest()], entryRoom: 'room-b' }, alice.keys);
  await refuses(decodePack(other), 'invalidField', 'pack.entry.room');
});

test('a tampered byte anywhere is refused', async () => {
  for (const compression of ['none', 'deflate']) {
    const bytes = await encodePack({ room: 'room-a', changes: [honest(1), honest(2)] }, alice.keys, { compression });
    for (let index = 0; index < bytes.length; index++) {
      for (const bit of [0x01, 0x80]) {
        const tampered = bytes.slice();
        tampered[index] ^= bit;
        await assert.rejects(decodePack(tampered), WireError, `${compression}: byte ${index} ^ ${bit} was accepted`);
      }
    }
  }
});

test('a missing, truncated or misplaced signature is refused as pack.signature', async () => {
  const bytes = await encodePack({ room: 'room-a', changes: [honest()] }, alice.keys, { compression: 'none' });
  const unsigned = bytes.subarray(0, bytes.length - 66);
  const signature = bytes.subarray(bytes.length - 64);
  await refuses(decodePack(unsigned), 'invalidField', 'pack.signature', 'no signature');
  for (const cut of [1, 32, 63]) {
    // Shorter, with its length said honestly, and cut short without.
    const short = concat(unsigned, [0x4a, 64 - cut], signature.subarray(cut));
    await refuses(decodePack(short), 'invalidField', 'pack.signature', `${64 - cut} bytes of signature`);
    await refuses(decodePack(bytes.subarray(0, bytes.length - cut)), 'malformed', 'pack', `cut ${cut} bytes`);
  }
  // The same signature, but not last: first, or followed by another field.
  await refuses(decodePack(concat([0x4a, 0x40], signature, unsigned)), 'invalidField', 'pack.signature', 'first');
  const extra = new Writer();
  extra.tag(2, 0);
  extra.varint(1);
  await refuses(decodePack(concat(bytes, extra.finish())), 'invalidField', 'pack.signature', 'a field after it');
  // Two signatures: the parsed one (the last) is the one at the end, but it signs bytes holding the first.
  await refuses(decodePack(concat(unsigned, [0x4a, 0x40], signature, [0x4a, 0x40], signature)), 'badSignature', undefined, 'twice');
});

test('an author that is not a 32-byte key, or a room that is not a room, is refused before the signature', async () => {
  for (const author of [new Uint8Array(0), alice.publicKey.subarray(0, 31), concat(alice.publicKey, [0])]) {
    await refuses(decodePack(await handmadePack({ author, changes: [honest()] }, nodeSigner(seedBytes(0xa1)))), 'invalidField', 'pack.author');
  }
  for (const room of ['', 'no spaces', 'x'.repeat(129)]) {
    await refuses(decodePack(await handmadePack({ room, author: alice.publicKey }, alice.keys)), 'invalidField', 'pack.room', `room ${room}`);
  }
  // A valid envelope signed by another key than the one it names.
  await refuses(decodePack(await handmadePack({ author: alice.publicKey, changes: [honest()] }, bob.keys)), 'badSignature');
});

test('a pack replayed into another room is refused as wrongRoom', async () => {
  const bytes = await encodePack({ room: 'room-a', changes: [honest()] }, alice.keys);
  await refuses(decodePack(bytes, { room: 'room-b' }), 'wrongRoom');
  assert.equal((await decodePack(bytes, { room: 'room-a' })).room, 'room-a');
  // Renaming the room in the envelope breaks the signature.
  const renamed = Buffer.from(bytes).toString('latin1').replace('room-a', 'room-b');
  await refuses(decodePack(Uint8Array.from(Buffer.from(renamed, 'latin1')), { room: 'room-b' }), 'badSignature');
});

test('a change of another replica in an honestly signed pack is refused as forgedAuthor', async () => {
  const mixed = [honest(1), changeOf(bob.replica, 1), honest(2)];
  for (const body of [mixed, [changeOf(bob.replica, 7)]]) {
    await refuses(decodePack(await handmadePack({ author: alice.publicKey, changes: body }, alice.keys)), 'forgedAuthor');
  }
  // Even a change from a newer schema, whose operations cannot be read, is checked for its author.
  const future = concat(changeOf(bob.replica, 1), [0x28, 0x02]);
  await refuses(decodePack(await handmadePack({ author: alice.publicKey, changes: [future], schemaVersion: 2 }, alice.keys), { schema: 2 }), 'forgedAuthor');
  // An honest encoder does not sign it at all.
  await refuses(encodePack({ room: 'room-a', changes: mixed }, alice.keys), 'forgedAuthor');
  await refuses(
    encodePack({ room: 'room-a', changes: [decodeChange(changeOf(bob.replica, 1))] }, alice.keys),
    'forgedAuthor',
  );
});

test('a newer schema and encryption are reported only once the signature holds', async () => {
  const future = await handmadePack({ author: alice.publicKey, changes: [honest()], schemaVersion: 2 }, alice.keys);
  await refuses(decodePack(future), 'futureSchema');
  assert.equal((await decodePack(future, { schema: 2 })).schemaVersion, 2);
  const forgedFuture = await handmadePack({ author: alice.publicKey, changes: [honest()], schemaVersion: 2 }, bob.keys);
  await refuses(decodePack(forgedFuture), 'badSignature');
  const encrypted = await handmadePack({ author: alice.publicKey, encryption: { scheme: 'x', keyId: new Uint8Array(0), nonce: new Uint8Array(0) } }, alice.keys);
  await refuses(decodePack(encrypted), 'encrypted');
});

test('the same changes with the same key give the same bytes and id; another key or room, others', async () => {
  const changes = [honest(1), honest(2)];
  const first = await encodePack({ room: 'room-a', changes }, alice.keys);
  const again = await encodePack({ room: 'room-a', changes: changes.map((change) => decodeChange(change)) }, (await testAuthor(0xa1)).keys);
  assert.deepEqual(again, first);
  assert.deepEqual(await packId(again), await packId(first));
  const elsewhere = await encodePack({ room: 'room-b', changes }, alice.keys);
  assert.notDeepEqual(await packId(elsewhere), await packId(first));
  assert.deepEqual(encodeChange(decodeChange(changes[0])), changes[0]);
});

test('signPack appends exactly 0x4A 0x40 and the 64-byte signature', async () => {
  const unsigned = await handmadePack({ author: alice.publicKey, changes: [honest()] }, null);
  const signed = await signPack(unsigned, nodeSigner(seedBytes(0xa1)));
  assert.deepEqual(signed.subarray(0, unsigned.length), unsigned);
  assert.equal(signed.length, unsigned.length + 66);
  await assert.rejects(signPack(unsigned, { publicKey: alice.publicKey, sign: async () => new Uint8Array(63) }), WireError);
});

/** @param {...(Uint8Array | number[])} parts */
function concat(...parts) {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}
