/**
 * The addresses a LAN hub is reached at by other devices on its network (`GET /lan`, served by
 * `inkwell serve --lan` and by the hub an `inkwell join --lan` peer becomes): a browser cannot look hubs
 * up by mDNS, so the share dialog shows the board's link on such an address, and its QR code.
 */

/** An origin as the server lists it: `http(s)://` an IPv4 address and a port, nothing else. */
const ORIGIN = /^https?:\/\/(\d{1,3}\.){3}\d{1,3}:\d{1,5}$/;

/**
 * The hub's origins on its network; none from a server that is not a LAN hub, or that does not answer.
 * @param {(url: string, init?: object) => Promise<{ok: boolean, json(): Promise<any>}>} [fetcher]
 * @returns {Promise<string[]>}
 */
export async function lanOrigins(fetcher = globalThis.fetch) {
  try {
    const response = await fetcher('/lan', { cache: 'no-store' });
    if (!response.ok) return [];
    const body = await response.json();
    return Array.isArray(body?.urls) ? body.urls.filter((url) => typeof url === 'string' && ORIGIN.test(url)).slice(0, 8) : [];
  } catch {
    return [];
  }
}
