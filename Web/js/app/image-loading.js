/**
 * The board's images in this page: one loader (js/blobs/blob-loader.js) over the page's offline cache and the
 * room's blobs, told after every change and every move of the view which images the board shows and which
 * of them are in view (those first); their decoded pixels (image-bitmaps.js) for the painters; and how far
 * they have got, for the sync indicator and the loading bars.
 *
 * Nothing here holds a frame up: a painter asks for an image's pixels and gets them or null (it draws a
 * placeholder), and the image's box is repainted once they are decoded. An image is decoded when it is
 * painted, or when its bytes come while it is in view or near it; one far away waits until it is painted.
 */

import { BlobLoader } from '../blobs/blob-loader.js';
import { ImageBitmaps, decodeImage } from './image-bitmaps.js';
import { ImageProgress } from './image-progress.js';

/** Decodes at once: decoding is off the main thread, but each holds a whole image's pixels meanwhile. */
const DECODES = 2;

/** A little after the loader lets a failed blob be asked for again. */
const RETRY_MILLISECONDS = 5_500;

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {import('../model/board-image.js').BoardImage} BoardImage
 * @typedef {import('./scene.js').SceneStroke} SceneStroke
 * @typedef {(image: BoardImage, onProgress: (loaded: number, total: number) => void) => Promise<Uint8Array>} Download
 */

/** The images of one page. Events: `progress` (the indicator's summary changed), `decoded` {blob}. */
export class ImageLoading extends EventTarget {
  #loader;
  #cache;
  #scene;
  #view;
  #invalidate;
  #decode;
  #bitmaps;
  #progress = new ImageProgress();
  /** @type {Map<string, {loaded: number, total: number}>} downloads under way, by blob */
  #fetching = new Map();
  /** @type {Map<string, Promise<any>>} decodes under way, by blob */
  #decoding = new Map();
  /** Blobs asked for and not at hand when asked: their arrival counts in the indicator. */
  #waiting = new Set();
  /** Blobs whose bytes are here. */
  #arrived = new Set();
  /** Blobs whose bytes the browser cannot decode: placeholders for good. */
  #broken = new Set();
  #running = 0;
  /** @type {(() => void)[]} */
  #queue = [];
  #retry = null;
  #timers;

  /**
   * @param {{
   *   download: Download, cache: import('../blobs/blob-cache.js').BlobCache, scene: import('./scene.js').Scene,
   *   view: () => Rect, invalidate: (rects: Rect[]) => void,
   *   decode?: typeof decodeImage, bitmaps?: ImageBitmaps,
   *   timers?: {setTimeout: typeof setTimeout, clearTimeout: typeof clearTimeout},
   * }} options `view` the board rectangle on screen; `invalidate` repaints board areas
   */
  constructor({ download, cache, scene, view, invalidate, decode = decodeImage, bitmaps = new ImageBitmaps(), timers = globalThis }) {
    super();
    this.#cache = cache;
    this.#scene = scene;
    this.#view = view;
    this.#invalidate = invalidate;
    this.#decode = decode;
    this.#bitmaps = bitmaps;
    this.#timers = timers;
    this.#loader = new BlobLoader({ download: (image, onProgress) => this.#download(download, image, onProgress), cache });
    this.#loader.addEventListener('loaded', (event) => this.#loaded(event.detail.blob));
    this.#loader.addEventListener('progress', () => this.#changed());
    this.#loader.addEventListener('failed', (event) => {
      console.warn(`inkwell: an image did not load (${event.detail.error?.message ?? event.detail.error}); trying again soon`);
      this.#retrySoon();
      this.#changed();
    });
  }

  /**
   * Tells the loader what the board shows now and what is in view: call after every change of the scene
   * and every move of the view. Images in view are asked for first, so they come first.
   */
  refresh() {
    const images = this.#scene.images();
    const view = this.#view();
    const visible = images.filter((stroke) => meets(stroke.bounds, view));
    this.#loader.setVisible(visible.map((stroke) => stroke.image.blob));
    for (const stroke of [...visible, ...images]) {
      if (this.#loader.want(stroke.image) === null) this.#waiting.add(stroke.image.blob);
    }
  }

  /**
   * The decoded pixels of an image, or null while they are not at hand (decoding them if its bytes are).
   * What the painters call.
   * @param {{image?: BoardImage}} stroke
   */
  pixels(stroke) {
    const image = stroke.image;
    if (image === undefined) return null;
    const bitmap = this.#bitmaps.get(image.blob);
    if (bitmap !== null) return bitmap;
    const got = this.#loader.want(image);
    if (got === null) this.#waiting.add(image.blob);
    else void this.#decodeBlob(image.blob, got);
    return null;
  }

  /**
   * Bytes this page has of its own (an image it just uploaded), and their decoded pixels if it has them:
   * it shows at once, and from the cache offline.
   * @param {{blob: string, bytes: number, type: string}} image
   * @param {Uint8Array} bytes
   * @param {import('./image-bitmaps.js').Bitmap | null} [bitmap]
   */
  hold(image, bytes, bitmap = null) {
    if (bitmap !== null) this.#bitmaps.put(image.blob, bitmap);
    this.#loader.hold(image, bytes);
  }

  /**
   * An image's bytes if they are in memory now, else null (asking for them). For the synchronous SVG.
   * @param {BoardImage} image
   * @returns {Uint8Array | null}
   */
  bytesAtHand(image) {
    return this.#loader.want(image)?.bytes ?? null;
  }

  /**
   * An image's bytes from memory or the offline cache, or null (an export writes what there is).
   * @param {BoardImage} image
   * @returns {Promise<Uint8Array | null>}
   */
  async bytes(image) {
    return this.bytesAtHand(image) ?? (await this.#cache.get(image.blob))?.bytes ?? null;
  }

  /**
   * The bytes of every image among `strokes` that can be had now, for an export that needs them at once.
   * @param {Iterable<{image?: BoardImage}>} strokes
   * @returns {Promise<(image: BoardImage) => Uint8Array | null>}
   */
  async bytesFor(strokes) {
    const found = new Map();
    for (const { image } of strokes) {
      if (image !== undefined && !found.has(image.blob)) found.set(image.blob, await this.bytes(image));
    }
    return (image) => found.get(image.blob) ?? null;
  }

  /**
   * A blob's bytes if this device's offline cache has them (whatever room they came from), else null;
   * nothing is fetched.
   * @param {string} blob
   * @returns {Promise<Uint8Array | null>}
   */
  async cachedBytes(blob) {
    return (await this.#cache.get(blob))?.bytes ?? null;
  }

  /**
   * The pixels of every image among `strokes` that can be had now, decoded: for an export.
   * @param {Iterable<{image?: BoardImage}>} strokes
   * @returns {Promise<import('./stroke-painter.js').ImageSource>}
   */
  async pixelsFor(strokes) {
    const found = new Map();
    for (const { image } of strokes) {
      if (image === undefined || found.has(image.blob)) continue;
      let bitmap = this.#bitmaps.get(image.blob);
      if (bitmap === null) {
        const bytes = await this.bytes(image);
        bitmap = bytes === null ? null : await this.#decodeBlob(image.blob, { bytes, type: image.type });
      }
      found.set(image.blob, bitmap);
    }
    return (stroke) => (stroke.image === undefined ? null : found.get(stroke.image.blob) ?? null);
  }

  /**
   * How far an image still arriving has got (0…1), or null for one not on its way (here, or failed).
   * @param {string} blob
   */
  fraction(blob) {
    const fetching = this.#fetching.get(blob);
    if (fetching !== undefined) return fetching.total > 0 ? fetching.loaded / fetching.total : 0;
    return this.#waiting.has(blob) && !this.#arrived.has(blob) ? 0 : null;
  }

  /** Whether an image's pixels are decoded. @param {string} blob */
  decoded(blob) {
    return this.#bitmaps.has(blob);
  }

  /** Whether an image's bytes are here. @param {string} blob */
  arrived(blob) {
    return this.#arrived.has(blob);
  }

  /** What the sync indicator shows of images. @returns {import('./image-progress.js').ImageSummary} */
  summary() {
    return this.#progress.summary(this.#loader.progress);
  }

  /**
   * An upload started, moved on, or ended (`sent` null): the indicator shows it.
   * @param {object} key one per upload
   * @param {number | null} sent
   * @param {number} [total]
   */
  upload(key, sent, total) {
    this.#progress.upload(key, sent, total);
    this.#changed();
  }

  /** Downloads a blob, keeping its progress for its loading bar. */
  async #download(download, image, onProgress) {
    this.#fetching.set(image.blob, { loaded: 0, total: image.bytes });
    try {
      return await download(image, (loaded, total) => {
        this.#fetching.set(image.blob, { loaded, total });
        onProgress(loaded, total);
      });
    } finally {
      this.#fetching.delete(image.blob);
    }
  }

  /** A blob's bytes came: decoded now if its image is in view or near, else when it is painted. */
  #loaded(blob) {
    this.#arrived.add(blob);
    const strokes = this.#withBlob(blob);
    if (this.#waiting.delete(blob)) this.#progress.arrived(strokes[0]?.image?.bytes ?? 0);
    if (strokes.length === 0 || this.#bitmaps.has(blob)) {
      this.#invalidate(strokes.map((stroke) => stroke.bounds));
      return;
    }
    const view = this.#view();
    const near = grown(view, Math.max(view.maxX - view.minX, view.maxY - view.minY) / 2);
    const got = this.#loader.want(strokes[0].image);
    if (got !== null && strokes.some((stroke) => meets(stroke.bounds, near))) void this.#decodeBlob(blob, got);
    else this.#invalidate(strokes.map((stroke) => stroke.bounds));
  }

  /** Decodes a blob's bytes (once at a time per blob, a few blobs at once); repaints its images after. */
  #decodeBlob(blob, { bytes, type }) {
    const under = this.#decoding.get(blob);
    if (under !== undefined) return under;
    if (this.#broken.has(blob)) return Promise.resolve(null);
    const job = this.#slot()
      .then(() => this.#decode(bytes, type))
      .then(
        ({ bitmap }) => {
          this.#bitmaps.put(blob, bitmap);
          this.#invalidate(this.#withBlob(blob).map((stroke) => stroke.bounds));
          this.dispatchEvent(new CustomEvent('decoded', { detail: { blob } }));
          return bitmap;
        },
        (error) => {
          this.#broken.add(blob);
          console.warn(`inkwell: an image cannot be shown: ${error?.message ?? error}`);
          return null;
        },
      )
      .finally(() => {
        this.#decoding.delete(blob);
        this.#release();
      });
    this.#decoding.set(blob, job);
    return job;
  }

  #slot() {
    if (this.#running < DECODES) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  #release() {
    const next = this.#queue.shift();
    if (next !== undefined) next();
    else this.#running -= 1;
  }

  /** The scene's images of a blob (copies of one image share it). @returns {SceneStroke[]} */
  #withBlob(blob) {
    return this.#scene.images().filter((stroke) => stroke.image?.blob === blob);
  }

  /** A failed image is asked for again once the loader allows it, whether or not anything else happens. */
  #retrySoon() {
    if (this.#retry !== null) return;
    this.#retry = this.#timers.setTimeout(() => {
      this.#retry = null;
      this.refresh();
    }, RETRY_MILLISECONDS);
  }

  #changed() {
    this.dispatchEvent(new Event('progress'));
  }
}

/** @param {Rect} a @param {Rect} b */
function meets(a, b) {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** @param {Rect} box */
function grown(box, amount) {
  return { minX: box.minX - amount, minY: box.minY - amount, maxX: box.maxX + amount, maxY: box.maxY + amount };
}
