// Moves a room's blobs (the bytes of its images) over HTTP, as Swift's `SyncClient.uploadBlob` and
// `downloadBlob` do: `PUT` and `GET /rooms/ROOM/blobs/SHA256` beside the sync endpoint, the capability in
// `Authorization: Bearer` (never in the URL, which logs keep). In an encrypted room the bytes are sealed
// before they leave and opened after they come; the name is the SHA-256 of the bytes as uploaded, and what
// comes back is checked against it before anything else.

import { toHex } from '../wire/bytes.js';
import { sha256 } from '../wire/digest.js';
import { openBlob, sealBlob } from '../wire/seal.js';
import { BlobError } from './blob-error.js';

/** The bytes a seal adds: nonce and tag. */
export const SEAL_OVERHEAD = 12 + 16;

/** The largest blob the server takes by default (`--blob-bytes`), and so the largest image a page sends. */
export const MAXIMUM_BLOB_BYTES = 32 * 1024 * 1024;

/**
 * @typedef {{syncUrl: string, room: string, capability: string, key: import('../wire/room-key.js').RoomKey | null}}
 *   BlobAccess what a session says moving its room's blobs needs (`session.blobAccess`)
 */

/**
 * `http(s)://HOST[PREFIX]/rooms/ROOM/blobs/HASH` for the sync endpoint `ws(s)://HOST[PREFIX]/sync`.
 * @param {string} syncUrl @param {string} room @param {string} blob 64 hex digits
 */
export function blobURL(syncUrl, room, blob) {
  const url = new URL(syncUrl);
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  url.pathname = `${url.pathname.replace(/\/sync$/, '').replace(/\/+$/, '')}/rooms/${encodeURIComponent(room)}/blobs/${blob}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/**
 * Uploads `plain` as a blob of the room: sealed first in an encrypted room. Uploading what the room holds
 * already costs nothing.
 * @param {BlobAccess & {bytes: Uint8Array, fetch?: typeof fetch}} options
 * @returns {Promise<{blob: string, bytes: number}>} the blob's name and its size as uploaded
 * @throws {BlobError} `tooLarge` before anything is sent, else as the server answers
 */
export async function uploadBlob({ syncUrl, room, capability, key, bytes, fetch = globalThis.fetch }) {
  const body = key === null ? bytes : await sealBlob(bytes, room, key);
  if (body.length > MAXIMUM_BLOB_BYTES) throw BlobError.tooLarge(MAXIMUM_BLOB_BYTES - (key === null ? 0 : SEAL_OVERHEAD));
  const blob = toHex(await sha256(body));
  const answer = await exchange(fetch, blobURL(syncUrl, room, blob), {
    method: 'PUT',
    headers: headers(capability, { 'Content-Type': 'application/octet-stream' }),
    body,
  });
  if (answer.status !== 200 && answer.status !== 201) throw await BlobError.refusal(answer);
  return { blob, bytes: body.length };
}

/**
 * Downloads the blob `blob` of the room, reporting its progress, and returns its bytes opened.
 * @param {BlobAccess & {
 *   blob: string, bytes?: number, onProgress?: (loaded: number, total: number) => void, signal?: AbortSignal,
 *   fetch?: typeof fetch
 * }} options `bytes`: the size the image names, for progress before the server says it
 * @returns {Promise<Uint8Array>}
 * @throws {BlobError} `refused` (404: the room holds no such blob), `hashMismatch`, `cannotOpen`, `tooLarge`
 */
export async function downloadBlob({ syncUrl, room, capability, key, blob, bytes: expected = 0, onProgress, signal, fetch = globalThis.fetch }) {
  const answer = await exchange(fetch, blobURL(syncUrl, room, blob), { headers: headers(capability), signal });
  if (answer.status !== 200) throw await BlobError.refusal(answer);
  const total = Number(answer.headers.get('content-length')) || expected;
  if (total > MAXIMUM_BLOB_BYTES) throw BlobError.tooLarge(MAXIMUM_BLOB_BYTES);
  const body = await readAll(answer, total, onProgress);
  if (toHex(await sha256(body)) !== blob) throw BlobError.hashMismatch(blob);
  if (key === null) return body;
  try {
    return await openBlob(body, room, key);
  } catch {
    throw BlobError.cannotOpen();
  }
}

/** The request, with "cannot reach the server" as a BlobError. */
async function exchange(fetch, url, init) {
  try {
    return await fetch(url, { ...init, cache: 'no-store' });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw BlobError.unreachable(error);
  }
}

function headers(capability, extra = {}) {
  return capability === '' ? extra : { ...extra, Authorization: `Bearer ${capability}` };
}

/** The body, chunk by chunk, with progress; cut off past the largest blob. */
async function readAll(answer, total, onProgress) {
  if (answer.body === null || answer.body === undefined) return new Uint8Array(await answer.arrayBuffer());
  const reader = answer.body.getReader();
  const chunks = [];
  let loaded = 0;
  onProgress?.(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.length;
    if (loaded > MAXIMUM_BLOB_BYTES) {
      await reader.cancel();
      throw BlobError.tooLarge(MAXIMUM_BLOB_BYTES);
    }
    chunks.push(value);
    onProgress?.(loaded, Math.max(total, loaded));
  }
  const body = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
