/**
 * The files a paste, a drop or the file picker brings, and whether each is an image a board shows: known by
 * its first bytes (image-format.js), never by its name or the type the browser guesses, and refused before
 * it is read when it is larger than a blob may be.
 */

import { BlobError } from '../blobs/blob-error.js';
import { MAXIMUM_BLOB_BYTES, SEAL_OVERHEAD } from '../blobs/blob-transfer.js';
import { imageType } from '../blobs/image-format.js';

/**
 * The files `data` carries (a paste's clipboard or a drop's), in order; none for text or strokes.
 * @param {DataTransfer | null | undefined} data
 * @returns {File[]}
 */
export function filesIn(data) {
  if (data === null || data === undefined) return [];
  const files = [...(data.files ?? [])];
  if (files.length > 0) return files;
  // Some browsers list a pasted image only among the items.
  const items = [...(data.items ?? [])].filter((item) => item.kind === 'file');
  return items.map((item) => item.getAsFile()).filter((file) => file !== null);
}

/**
 * Whether a drag carries files (while it is over the board its files cannot be read yet, only this).
 * @param {DataTransfer | null | undefined} data
 */
export function carriesFiles(data) {
  return [...(data?.types ?? [])].includes('Files');
}

/**
 * The most bytes an image may have in this room: a blob's limit, less what sealing adds in an encrypted one.
 * @param {boolean} encrypted
 */
export function imageLimit(encrypted) {
  return MAXIMUM_BLOB_BYTES - (encrypted ? SEAL_OVERHEAD : 0);
}

/**
 * The bytes of an image file and its type.
 * @param {{size: number, arrayBuffer(): Promise<ArrayBuffer>}} file
 * @param {number} limit the most bytes it may have
 * @returns {Promise<{bytes: Uint8Array, type: string}>}
 * @throws {BlobError} `tooLarge` (before reading it), `notAnImage`
 */
export async function readImageFile(file, limit) {
  if (file.size > limit) throw BlobError.tooLarge(limit);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length > limit) throw BlobError.tooLarge(limit);
  const type = imageType(bytes);
  if (type === null) throw BlobError.notAnImage();
  return { bytes, type };
}
