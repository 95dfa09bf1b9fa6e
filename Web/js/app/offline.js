/**
 * Registers the service worker (Web/sw.js) that keeps the page itself available offline, so a reload
 * without a network still opens the board from the browser's replica. Best effort: without service
 * workers (plain http on another host, private modes) the page works as before, just not after a reload
 * while offline.
 */

/**
 * @param {{navigator?: Navigator, performance?: Performance, location?: Location}} [page]
 * @returns {Promise<boolean>} whether a worker is in place
 */
export async function keepPageOffline({ navigator = globalThis.navigator, performance = globalThis.performance, location = globalThis.location } = {}) {
  if (!navigator?.serviceWorker) return false;
  try {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    // What loaded before the worker took charge is listed for it to keep as well.
    const urls = [location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)];
    (registration.active ?? navigator.serviceWorker.controller)?.postMessage({ type: 'keep', urls });
    return true;
  } catch {
    return false;
  }
}
