// An image as its `addImage` names it, as Sources/InkwellBoard/Model/BoardImage.swift: the blob holding its
// bytes and the box it fills before its transform (docs/ARCHITECTURE.md, "Images on the board"). The bytes
// travel apart from the board, so a board names an image long before its pixels are anywhere near.

/** The types a board shows: raster formats every browser decodes, and none that can carry script. */
export const IMAGE_TYPES = Object.freeze(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The largest side of the box an image fills, in board pixels. */
export const MAXIMUM_IMAGE_SIDE = 100_000;

/** The largest blob an image names: 2^53 − 1, the most a page counts exactly. */
export const MAXIMUM_IMAGE_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * @typedef {{blob: string, bytes: number, type: string, width: number, height: number}} BoardImage `blob` is
 *   the blob's name, the SHA-256 of the bytes uploaded (sealed, in an encrypted room), as 64 lowercase hex
 *   digits: its address on the server; `bytes` the blob's size; `width` and `height` the box it fills
 */

/**
 * The image an `addImage` names, frozen, or null when every board ignores it (Swift's `isValid`): a 32-byte
 * name, a size of 1 to 2^53 − 1, a type of `IMAGE_TYPES`, and sides finite, above 0, at most 100,000. The
 * name is read in either hex case, as bytes are: a board keeps it in lowercase, so JSON and the wire agree.
 * @param {any} op the JSON form `{op: "addImage", blob, bytes, type, at, width, height}`
 * @returns {BoardImage | null}
 */
export function readImage(op) {
  const { blob, bytes, type, width, height } = op;
  if (typeof blob !== 'string' || !/^[0-9a-fA-F]{64}$/.test(blob)) return null;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAXIMUM_IMAGE_BYTES) return null;
  if (!IMAGE_TYPES.includes(type) || !isSide(width) || !isSide(height)) return null;
  return Object.freeze({ blob: blob.toLowerCase(), bytes, type, width, height });
}

/**
 * The blob's name as its 32 bytes: what the canonical encoding writes.
 * @param {BoardImage} image
 * @returns {Uint8Array}
 */
export function blobBytes(image) {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(image.blob.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function isSide(value) {
  return Number.isFinite(value) && value > 0 && value <= MAXIMUM_IMAGE_SIDE;
}
