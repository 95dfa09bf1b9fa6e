/**
 * Puts images on the board from files (a paste, a drop, the file picker): each is checked by its bytes,
 * decoded to learn its size, uploaded as a blob of the room (its progress in the sync indicator), and only
 * then added, in one change, so nobody is ever shown an image whose bytes the room does not hold. The page
 * keeps the bytes it sent, so its own image shows at once, and offline later.
 *
 * Images are added one after another, in the order given: a drop of several is several changes, each
 * image a little below and right of the one before. Images pasted from another room are uploaded here
 * again first (`rehome`).
 */

import { addImageOperation } from '../model/board-images.js';
import { uploadBlob } from '../blobs/blob-transfer.js';
import { decodeImage } from './image-bitmaps.js';
import { imageLimit, readImageFile } from './image-files.js';
import { placeImage } from './image-placement.js';
import { COPY_OFFSET } from './clipboard.js';
import { uploadFetch } from './upload-fetch.js';

/**
 * @typedef {{name?: string, size: number, arrayBuffer(): Promise<ArrayBuffer>}} ImageFile a `File`
 */

/** Adds images to one page's board. */
export class ImageAdder {
  #queue = Promise.resolve();

  /**
   * @param {{
   *   session: {blobAccess: import('../blobs/blob-transfer.js').BlobAccess, encrypted: boolean},
   *   images: import('./image-loading.js').ImageLoading,
   *   viewport: import('./viewport.js').Viewport,
   *   commit: (operations: object[]) => object | null,
   *   notify: (text: string, options?: {alert?: boolean}) => void,
   *   canAdd: () => string | null,
   *   upload?: typeof uploadBlob, decode?: typeof decodeImage, fetchFor?: typeof uploadFetch,
   * }} options `canAdd` says why images cannot be added now (a view link), or null; `commit` says itself
   *   why a change could not be made
   */
  constructor({ session, images, viewport, commit, notify, canAdd, upload = uploadBlob, decode = decodeImage, fetchFor = uploadFetch }) {
    this.session = session;
    this.images = images;
    this.viewport = viewport;
    this.commit = commit;
    this.notify = notify;
    this.canAdd = canAdd;
    this.upload = upload;
    this.decode = decode;
    this.fetchFor = fetchFor;
  }

  /**
   * Adds `files` as images centred at `centre` (a board point; the view's middle if null), after any
   * added before.
   * @param {ImageFile[]} files
   * @param {[number, number] | null} [centre]
   * @returns {Promise<string[]>} the blobs of the images added
   */
  add(files, centre = null) {
    const run = async () => {
      const added = [];
      for (const [index, file] of files.entries()) {
        const step = index * COPY_OFFSET;
        const at = centre === null ? null : /** @type {[number, number]} */ ([centre[0] + step, centre[1] + step]);
        const blob = await this.#addOne(file, at, step);
        if (blob !== null) added.push(blob);
      }
      return added;
    };
    const done = this.#queue.then(run);
    this.#queue = done.catch(() => {});
    return done;
  }

  /**
   * Pasted strokes from another room, with their images uploaded to this one and named as it names them;
   * an image whose bytes this device does not have is left out, and the page says so.
   * @template {{image?: import('../model/board-image.js').BoardImage}} T
   * @param {T[]} strokes
   * @returns {Promise<T[]>}
   */
  async rehome(strokes) {
    const why = this.canAdd();
    if (why !== null) {
      this.notify(why);
      return [];
    }
    /** @type {Map<string, import('../model/board-image.js').BoardImage | null>} */
    const moved = new Map();
    let missing = 0;
    for (const { image } of strokes) {
      if (image === undefined || moved.has(image.blob)) continue;
      const bytes = await this.images.cachedBytes(image.blob);
      if (bytes === null) missing += 1;
      moved.set(image.blob, bytes === null ? null : await this.#rehomeOne(image, bytes));
    }
    if (missing > 0) {
      const what = missing === 1 ? 'An image was' : `${missing} images were`;
      this.notify(`${what} left out: the bytes are not on this device (open the board they came from first)`, { alert: true });
    }
    const kept = strokes.filter((stroke) => stroke.image === undefined || moved.get(stroke.image.blob) !== null);
    return kept.map((stroke) => (stroke.image === undefined ? stroke : { ...stroke, image: moved.get(stroke.image.blob) }));
  }

  /**
   * @param {import('../model/board-image.js').BoardImage} image
   * @param {Uint8Array} bytes
   * @returns {Promise<import('../model/board-image.js').BoardImage | null>} null if the upload failed (and said so)
   */
  async #rehomeOne(image, bytes) {
    const key = {};
    try {
      this.images.upload(key, 0, bytes.length);
      const fetch = this.fetchFor((sent, total) => this.images.upload(key, sent, total || bytes.length));
      const uploaded = await this.upload({ ...this.session.blobAccess, bytes, fetch });
      const here = { ...image, blob: uploaded.blob, bytes: uploaded.bytes };
      this.images.hold(here, bytes);
      return here;
    } catch (error) {
      this.notify(`Could not paste an image: ${error?.message ?? error}`, { alert: true });
      return null;
    } finally {
      this.images.upload(key, null);
    }
  }

  /** @returns {Promise<string | null>} the image's blob, or null when it was not added (and why was said) */
  async #addOne(file, centre, step) {
    const why = this.canAdd();
    if (why !== null) {
      this.notify(why);
      return null;
    }
    const name = file.name ? `“${file.name}”` : 'the image';
    const key = {};
    let decoded = null;
    try {
      const { bytes, type } = await readImageFile(file, imageLimit(this.session.encrypted));
      decoded = await this.decode(bytes, type);
      const { bitmap, natural } = decoded;
      const view = this.viewport.visibleRect();
      const middle = /** @type {[number, number]} */ ([(view.minX + view.maxX) / 2 + step, (view.minY + view.maxY) / 2 + step]);
      const box = placeImage(natural, centre ?? middle, view);
      this.images.upload(key, 0, bytes.length);
      const fetch = this.fetchFor((sent, total) => this.images.upload(key, sent, total || bytes.length));
      const uploaded = await this.upload({ ...this.session.blobAccess, bytes, fetch });
      const image = { blob: uploaded.blob, bytes: uploaded.bytes, type, width: box.width, height: box.height };
      const operation = addImageOperation(image, box.at);
      this.images.hold(image, bytes, bitmap);
      decoded = null;
      // Drawing may have been turned off while the bytes went up.
      const late = this.canAdd();
      if (late !== null) {
        this.notify(late);
        return null;
      }
      return this.commit([operation]) === null ? null : image.blob;
    } catch (error) {
      decoded?.bitmap.close?.();
      this.notify(`Could not add ${name}: ${error?.message ?? error}`, { alert: true });
      return null;
    } finally {
      this.images.upload(key, null);
    }
  }
}
