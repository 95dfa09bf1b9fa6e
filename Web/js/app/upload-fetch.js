/**
 * A `fetch` that says how much of its body has been sent: the blob layer uploads with whatever `fetch` it
 * is given, and `fetch` itself reports no upload progress, so an image's upload goes through
 * XMLHttpRequest, whose `upload` events do. Only what blob-transfer.js asks of `fetch` is here: method,
 * headers, body, signal; the answer is a real `Response`.
 */

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * @param {(sent: number, total: number) => void} onProgress `total` 0 while unknown
 * @param {{XMLHttpRequest?: typeof XMLHttpRequest}} [options]
 * @returns {typeof fetch}
 */
export function uploadFetch(onProgress, { XMLHttpRequest: XHR = globalThis.XMLHttpRequest } = {}) {
  return /** @type {typeof fetch} */ (
    (url, init = {}) =>
      new Promise((resolve, reject) => {
        const request = new XHR();
        request.open(init.method ?? 'GET', String(url));
        request.responseType = 'arraybuffer';
        for (const [name, value] of Object.entries(init.headers ?? {})) request.setRequestHeader(name, value);
        request.upload.addEventListener('progress', (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0));
        request.addEventListener('load', () => {
          const body = NO_BODY.has(request.status) ? null : request.response;
          resolve(new Response(body, { status: request.status, statusText: request.statusText, headers: headersOf(request) }));
        });
        // As fetch: a network failure is a TypeError, an abort an AbortError.
        request.addEventListener('error', () => reject(new TypeError('the upload failed: the network is unreachable')));
        request.addEventListener('abort', () => reject(new DOMException('the upload was cancelled', 'AbortError')));
        init.signal?.addEventListener('abort', () => request.abort(), { once: true });
        request.send(/** @type {any} */ (init.body ?? null));
      })
  );
}

/** @param {XMLHttpRequest} request */
function headersOf(request) {
  const headers = new Headers();
  for (const row of request.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
    const colon = row.indexOf(':');
    if (colon > 0) headers.append(row.slice(0, colon).trim(), row.slice(colon + 1).trim());
  }
  return headers;
}
