// The page's service worker: lets a board that was open before reload while offline.
//
// The page's modules and stylesheet come under `/v/VERSION/` (the server's WebShell): a new version of any
// file is a new path, so those are answered from the cache first, and fetched (and kept) only when not
// there. Everything else goes network first: online, every request goes to the server as if there were no
// worker (the page itself is revalidated, so a new client version is picked up at once); a copy of each
// answer is kept, and it is served only when the network fails. The sync socket, rooms' blobs and the
// server's own endpoints are never touched. Every room page is the same index.html, so they share one
// cached copy.

const CACHE = 'inkwell-shell-v1';
const PASS_THROUGH = ['/sync', '/rooms/', '/healthz', '/metrics', '/lan', '/interop/'];
const VERSIONED = '/v/';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || PASS_THROUGH.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(url.pathname.startsWith(VERSIONED) ? cacheFirst(event, request, url.pathname) : networkFirst(event, request, cacheKey(url)));
});

// The page lists what it loaded before this worker was in charge, so those files are kept too.
self.addEventListener('message', (event) => {
  const urls = event.data?.type === 'keep' && Array.isArray(event.data.urls) ? event.data.urls : [];
  event.waitUntil(keep(urls));
});

function cacheKey(url) {
  return url.pathname === '/' || url.pathname.startsWith('/r/') ? '/index.html' : url.pathname;
}

async function networkFirst(event, request, key) {
  try {
    const response = await fetch(request);
    // Kept after answering, so the page never waits for the cache.
    if (response.ok && response.type === 'basic') {
      const copy = response.clone();
      event.waitUntil(store(key, copy));
    }
    return response;
  } catch (error) {
    const cached = await (await caches.open(CACHE)).match(key);
    if (cached !== undefined) return cached;
    throw error;
  }
}

/** The version a `/v/VERSION/…` key names, or null. */
function versionOf(key) {
  return key.startsWith(VERSIONED) ? key.split('/')[2] : null;
}

/** The newest version this worker has kept files of: the others' files are dropped once it changes. */
let keptVersion = null;

/**
 * Keeps an answer; the first file of a new version drops those of every other version. A versioned file the
 * server did not answer as immutable is not the current version's (a tab still running an older page asked
 * for it): it is not kept, and drops nothing, or the current version's files would go from the cache.
 */
async function store(key, response) {
  if (versionOf(key) !== null && !(response.headers.get('cache-control') ?? '').includes('immutable')) return;
  const cache = await caches.open(CACHE);
  await cache.put(key, response);
  const version = versionOf(key);
  if (version === null || version === keptVersion) return;
  keptVersion = version;
  for (const request of await cache.keys()) {
    const other = versionOf(new URL(request.url).pathname);
    if (other !== null && other !== version) await cache.delete(request);
  }
}

async function cacheFirst(event, request, key) {
  const cached = await (await caches.open(CACHE)).match(key);
  if (cached !== undefined) return cached;
  return networkFirst(event, request, key);
}

async function keep(urls) {
  const cache = await caches.open(CACHE);
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin || PASS_THROUGH.some((prefix) => url.pathname.startsWith(prefix))) continue;
    const key = cacheKey(url);
    if ((await cache.match(key)) !== undefined) continue;
    try {
      const response = await fetch(url.pathname);
      if (response.ok) await store(key, response);
    } catch {
      // Offline already: what is not kept now is fetched next time.
    }
  }
}
