// Room ids and paths (js/app/room.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidRoom, newRoomId, roomFromPath, roomPath } from '../../js/app/room.js';

/** A byte source counting up from `start`, so ids are predictable. */
function counting(start = 0) {
  let next = start;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = next++ & 0xff;
    return bytes;
  };
}

test('a new room id is 22 letters and digits, valid for the server', () => {
  const id = newRoomId();
  assert.match(id, /^[A-Za-z0-9]{22}$/);
  assert.ok(isValidRoom(id));
  assert.notEqual(newRoomId(), id, 'ids come from crypto.getRandomValues');
});

test('room ids skip the bytes that would bias the alphabet', () => {
  // Bytes 240…271 wrap to 240…255, 0…15: the eight of 248 and above are redrawn, never used.
  const id = newRoomId(counting(240));
  const expected = [240, 241, 242, 243, 244, 245, 246, 247, ...Array.from({ length: 14 }, (_, i) => i)].map(
    (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[byte % 62],
  );
  assert.equal(id, expected.join(''));
});

test('room names follow the sync protocol: 1 to 128 of A-Z a-z 0-9 . _ -', () => {
  for (const good of ['a', 'Room-1', 'a.b_c', 'x'.repeat(128)]) assert.ok(isValidRoom(good), good);
  for (const bad of ['', 'x'.repeat(129), 'a b', 'ü', 'a/b', null, 42]) assert.ok(!isValidRoom(bad), String(bad));
});

test('the room comes from /r/<room>, with or without a trailing slash', () => {
  assert.equal(roomFromPath('/r/Abc123'), 'Abc123');
  assert.equal(roomFromPath('/r/Abc123/'), 'Abc123');
  assert.equal(roomFromPath('/r/a.b-c_d'), 'a.b-c_d');
  assert.equal(roomFromPath('/'), null);
  assert.equal(roomFromPath('/r/'), null);
  assert.equal(roomFromPath('/r/a/b'), null);
  assert.equal(roomFromPath('/r/a%20b'), null, 'decoded, then checked');
  assert.equal(roomFromPath('/r/%E0%A4%A'), null, 'a malformed escape is no room');
  assert.equal(roomPath('Abc'), '/r/Abc');
});
