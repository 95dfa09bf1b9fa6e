// The addresses of a LAN hub, as the share dialog asks for them (js/app/lan-origins.js): taken only in the
// one shape the server writes, so a page never shows, or puts in a QR code, a link somewhere else.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lanOrigins } from '../../js/app/lan-origins.js';

const answer = (status, body) => async () => ({ ok: status === 200, json: async () => body });

test('a hub lists where the network reaches it', async () => {
  assert.deepEqual(await lanOrigins(answer(200, { urls: ['http://10.77.0.1:8080', 'https://192.168.1.5:443'] })), [
    'http://10.77.0.1:8080',
    'https://192.168.1.5:443',
  ]);
});

test('a server that is not a hub, one that fails, and odd answers give none', async () => {
  assert.deepEqual(await lanOrigins(answer(404, { error: 'not a hub' })), []);
  assert.deepEqual(
    await lanOrigins(async () => {
      throw new TypeError('offline');
    }),
    [],
  );
  assert.deepEqual(await lanOrigins(answer(200, { urls: 'http://10.0.0.1:80' })), []);
  assert.deepEqual(await lanOrigins(answer(200, null)), []);
  assert.deepEqual(
    await lanOrigins(answer(200, { urls: ['javascript:alert(1)', 'http://evil.example:80', 'http://10.0.0.1:80/path', 42, 'http://10.0.0.2:81'] })),
    ['http://10.0.0.2:81'],
  );
});
