// The service worker (Web/sw.js) run in a context of its own, with a cache and a network that the test
// plays: versioned files are answered from the cache first, and only the current version's are kept.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';

const source = readFileSync(new URL('../../sw.js', import.meta.url), 'utf8');

/** The worker loaded with an empty cache and `network` answering its fetches: its fetch handler, and the cache. */
function worker(network) {
  const entries = new Map();
  const cache = {
    match: async (key) => entries.get(typeof key === 'string' ? key : new URL(key.url).pathname),
    put: async (key, response) => void entries.set(key, response),
    keys: async () => [...entries.keys()].map((key) => ({ url: `https://board.example${key}` })),
    delete: async (request) => entries.delete(new URL(request.url).pathname),
  };
  const listeners = {};
  const context = {
    self: { location: { origin: 'https://board.example' }, addEventListener: (type, listener) => (listeners[type] = listener), skipWaiting() {}, clients: { claim() {} } },
    caches: { open: async () => cache },
    fetch: async (request) => network(new URL(typeof request === 'string' ? request : request.url, 'https://board.example').pathname),
    URL,
  };
  vm.runInNewContext(source, context);
  /** What the worker answers for `path`, once everything it waits on is done. */
  async function get(path) {
    const waits = [];
    let answer;
    listeners.fetch({ request: { method: 'GET', url: `https://board.example${path}` }, respondWith: (promise) => (answer = promise), waitUntil: (promise) => waits.push(promise) });
    const response = await answer;
    await Promise.all(waits);
    return response;
  }
  return { get, entries };
}

/** A response as fetch gives one: `body` its text, with a Cache-Control header. */
function response(body, cacheControl) {
  return { ok: true, type: 'basic', body, headers: new Map([['cache-control', cacheControl]]), clone() { return this; } };
}

test('the current version’s files are kept and answered from the cache; an older version’s are neither kept nor drop them', async () => {
  const fetched = [];
  const { get, entries } = worker(async (path) => {
    fetched.push(path);
    return path.startsWith('/v/new/') ? response(`new ${path}`, 'public, max-age=31536000, immutable') : response(`today's ${path}`, 'no-cache');
  });
  assert.equal((await get('/v/new/js/a.js')).body, 'new /v/new/js/a.js');
  assert.equal((await get('/v/new/js/a.js')).body, 'new /v/new/js/a.js');
  assert.deepEqual(fetched, ['/v/new/js/a.js'], 'the second from the cache');

  // A tab still running the older page asks for one of its files: today's file, answered no-cache.
  assert.equal((await get('/v/old/js/b.js')).body, "today's /v/old/js/b.js");
  assert.equal(entries.has('/v/old/js/b.js'), false, 'not kept under the older version');
  assert.equal(entries.has('/v/new/js/a.js'), true, 'the current version’s file stays');
});
