// The page's service worker: lets a board that was open before reload while offline.
//
// Network first, always: online, every request goes to the server as if there were no worker (the server
// asks browsers to revalidate, so a new client version is picked up at once); a copy of each answer is
// kept, and it is served only when the network fails. The sync socket, rooms' blobs and the server's own
// endpoints are never touched. Every room page is the same index.html, so they share one cached copy.

const CACHE = 'inkwell-shell-v1';
const PASS_THROUGH = ['/sync', '/rooms/', '/healthz', '/metrics'];

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || PASS_THROUGH.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(networkFirst(event, request, cacheKey(url)));
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
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  } catch (error) {
    const cached = await (await caches.open(CACHE)).match(key);
    if (cached !== undefined) return cached;
    throw error;
  }
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
      if (response.ok) await cache.put(key, response);
    } catch {
      // Offline already: what is not kept now is fetched next time.
    }
  }
}
