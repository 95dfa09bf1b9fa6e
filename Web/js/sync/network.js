// Whether the browser believes it is online, and its `online` / `offline` events. Tests pass their own.

/**
 * @typedef {{
 *   readonly onLine: boolean,
 *   addEventListener(type: 'online' | 'offline', listener: () => void): void,
 *   removeEventListener(type: 'online' | 'offline', listener: () => void): void
 * }} Network
 */

/**
 * The page's network: `navigator.onLine` and the window's events; always online where there are none (node).
 * @returns {Network}
 */
export function browserNetwork() {
  const target = typeof globalThis.addEventListener === 'function' ? globalThis : null;
  return {
    get onLine() {
      return globalThis.navigator?.onLine ?? true;
    },
    addEventListener: (type, listener) => target?.addEventListener(type, listener),
    removeEventListener: (type, listener) => target?.removeEventListener(type, listener),
  };
}

/**
 * The sync socket's URL for a server origin: `http://host:port` → `ws://host:port/sync` (https → wss).
 * @param {string} serverURL
 * @returns {string}
 * @throws {TypeError} for a URL that is not http(s)
 */
export function syncURL(serverURL) {
  const url = new URL(serverURL);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('serverURL is an http(s) URL');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/?$/, '/')}sync`;
  url.search = '';
  url.hash = '';
  return url.toString();
}
