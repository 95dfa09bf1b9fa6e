/**
 * Decoded images, by blob: what the painters draw. Decoded pixels cost four bytes each, far more than the
 * file, so the cache is bounded by pixels and drops the least recently drawn first (closing it); a dropped
 * image is decoded again from the loader's bytes when it is drawn next. An image drawn within the last
 * moment is never dropped, even past the budget: with more in view than the budget holds, dropping one
 * still on screen would decode it again at once, and drop another, without end. A very large image is
 * decoded at a bounded size: a board never shows more of it than a screen's worth at once.
 */

/** Pixels kept decoded at most: 48 megapixels, about 200 MB. */
export const MAXIMUM_PIXELS = 48 * 1024 * 1024;

/** An image is decoded with its longer side at most this many pixels. */
export const MAXIMUM_DECODED_SIDE = 4096;

/** An image drawn this recently (milliseconds) is still on screen: kept whatever the budget. */
const IN_USE = 2_000;

/**
 * @typedef {{width: number, height: number, close?: () => void}} Bitmap an ImageBitmap, or a stand-in in tests
 */

/** Decoded images, least recently used first. */
export class ImageBitmaps {
  /** @type {Map<string, {bitmap: Bitmap, pixels: number, used: number}>} in order of use, oldest first */
  #entries = new Map();
  #pixels = 0;
  #now;

  /** @param {{maximumPixels?: number, now?: () => number}} [options] */
  constructor({ maximumPixels = MAXIMUM_PIXELS, now = () => performance.now() } = {}) {
    this.maximumPixels = maximumPixels;
    this.#now = now;
  }

  /** The decoded image of a blob, marked as used now, or null. @param {string} blob */
  get(blob) {
    const entry = this.#entries.get(blob);
    if (entry === undefined) return null;
    this.#entries.delete(blob);
    this.#entries.set(blob, entry);
    entry.used = this.#now();
    return entry.bitmap;
  }

  /** @param {string} blob */
  has(blob) {
    return this.#entries.has(blob);
  }

  /** Decoded pixels held now. */
  get pixels() {
    return this.#pixels;
  }

  /**
   * Keeps a decoded image, dropping the least recently used others past the budget (never this one, nor
   * one drawn a moment ago).
   * @param {string} blob
   * @param {Bitmap} bitmap
   */
  put(blob, bitmap) {
    const old = this.#entries.get(blob);
    if (old?.bitmap === bitmap) return void this.get(blob);
    if (old !== undefined) this.#drop(blob);
    const pixels = bitmap.width * bitmap.height;
    const now = this.#now();
    this.#entries.set(blob, { bitmap, pixels, used: now });
    this.#pixels += pixels;
    for (const [key, entry] of this.#entries) {
      if (this.#pixels <= this.maximumPixels) break;
      if (key !== blob && now - entry.used >= IN_USE) this.#drop(key);
    }
  }

  #drop(blob) {
    const entry = this.#entries.get(blob);
    if (entry === undefined) return;
    this.#entries.delete(blob);
    this.#pixels -= entry.pixels;
    entry.bitmap.close?.();
  }
}

/**
 * Decodes an image's bytes, its longer side bounded by `MAXIMUM_DECODED_SIDE`.
 * @param {Uint8Array} bytes
 * @param {string} type
 * @returns {Promise<{bitmap: ImageBitmap, natural: {width: number, height: number}}>} `natural` the size
 *   the file itself has
 * @throws {Error} when the browser cannot decode it (a damaged file)
 */
export async function decodeImage(bytes, type) {
  const file = new Blob([bytes], { type });
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (cause) {
    throw new Error('the image could not be read: the file is damaged', { cause });
  }
  const natural = { width: bitmap.width, height: bitmap.height };
  const side = Math.max(natural.width, natural.height);
  if (side <= MAXIMUM_DECODED_SIDE) return { bitmap, natural };
  const scale = MAXIMUM_DECODED_SIDE / side;
  bitmap.close();
  const resizeWidth = Math.max(1, Math.round(natural.width * scale));
  const resizeHeight = Math.max(1, Math.round(natural.height * scale));
  return { bitmap: await createImageBitmap(file, { resizeWidth, resizeHeight, resizeQuality: 'high' }), natural };
}
