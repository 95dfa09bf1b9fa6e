// Conformance/wire.json, made by Swift: every vector decodes to its JSON and encodes back to its bytes.

import assert from 'node:assert/strict';
import test from 'node:test';
import { WireError } from '../../js/wire/errors.js';
import { changeHeader, decodeChange, encodeChange } from '../../js/wire/change.js';
import { decodePack, decodePackSync, encodePack } from '../../js/wire/pack.js';
import { packId } from '../../js/wire/pack-id.js';
import { decodePoints, encodePoints } from '../../js/wire/points.js';
import { decodeClientFrame, decodeServerFrame, encodeClientFrame, encodeServerFrame } from '../../js/wire/sync.js';
import { fromHex, fromJSONShape, loadJSON, toHex, toJSONShape } from './support.mjs';

const wire = loadJSON('wire.json');

test('changes made by Swift decode to their JSON and encode back to the same bytes', () => {
  assert.ok(wire.changes.length >= 60);
  for (const vector of wire.changes) {
    const decoded = decodeChange(fromHex(vector.bytes));
    assert.deepEqual(toJSONShape(decoded), vector.json, vector.name);
    assert.equal(toHex(encodeChange(decoded)), vector.reencoded ?? vector.bytes, vector.name);
    assert.equal(toHex(encodeChange(fromJSONShape(vector.json))), vector.reencoded ?? vector.bytes, vector.name);
  }
});

test('a change of a newer schema is reported with its version, and its header still reads', () => {
  for (const vector of wire.futureChanges) {
    const bytes = fromHex(vector.bytes);
    assert.throws(
      () => decodeChange(bytes),
      (error) => error instanceof WireError && error.code === 'futureSchema' && error.schemaVersion === vector.schemaVersion,
    );
    assert.deepEqual(changeHeader(bytes), { ...vector.header, schemaVersion: vector.schemaVersion });
  }
});

test('ink points made by Swift decode and encode back', () => {
  for (const vector of wire.points) {
    const bytes = fromHex(vector.bytes);
    assert.deepEqual(decodePoints(bytes), vector.json, vector.name);
    assert.equal(toHex(encodePoints(vector.json.points, vector.json.pressures)), vector.bytes, vector.name);
  }
});

test('packs made by Swift decode to their entries', async (t) => {
  let same = 0;
  let deflated = 0;
  for (const vector of wire.packs) {
    const bytes = fromHex(vector.bytes);
    const pack = decodePackSync(bytes, { schema: vector.understanding ?? 1 });
    assert.deepEqual(
      toJSONShape(pack),
      { id: vector.id, schemaVersion: vector.schemaVersion, entries: vector.entries },
      vector.name,
    );
    if (vector.understanding === undefined) assert.deepEqual(await decodePack(bytes), pack);
    const rooms = new Set(vector.entries.map((entry) => entry.room));
    if (rooms.size > 1 || vector.understanding !== undefined || vector.name.includes('without its final block')) continue;
    const room = rooms.values().next().value ?? 'room-a';
    const changes = vector.entries.map((entry) => fromHex(entry.change));
    const again = await encodePack({ room, changes, id: fromHex(vector.id) }, { compression: vector.compression });
    assert.deepEqual(decodePackSync(again), pack, `${vector.name}: what JS writes decodes the same`);
    if (vector.compression === 'none') {
      assert.equal(toHex(again), vector.bytes, `${vector.name}: without compression the bytes are Swift's`);
    } else {
      deflated++;
      if (toHex(again) === vector.bytes) same++;
    }
  }
  t.diagnostic(`deflate output identical to Swift's for ${same} of ${deflated} packs (not required)`);
});

test('pack ids are PackID(room:changes:)', () => {
  for (const vector of wire.packIds) {
    assert.equal(toHex(packId(vector.room, vector.changes)), vector.id, vector.room);
    assert.equal(toHex(packId(vector.room, [...vector.changes].reverse())), vector.id, 'order does not matter');
  }
});

test('every sync frame made by Swift decodes to its JSON and encodes back', () => {
  const directions = new Set(wire.frames.map((vector) => vector.direction));
  assert.deepEqual([...directions].sort(), ['client', 'server']);
  for (const vector of wire.frames) {
    const bytes = fromHex(vector.bytes);
    const [decode, encode] =
      vector.direction === 'client' ? [decodeClientFrame, encodeClientFrame] : [decodeServerFrame, encodeServerFrame];
    const frame = decode(bytes);
    assert.deepEqual(toJSONShape(frame), vector.json, vector.name);
    assert.equal(toHex(encode(frame)), vector.bytes, vector.name);
    assert.equal(toHex(encode(fromJSONShape(vector.json))), vector.bytes, vector.name);
  }
});
