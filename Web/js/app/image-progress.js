/**
 * What the sync indicator says of images, apart from the changes: uploads under way, and the images of the
 * board still arriving, counted from the moment some were missing until none is ("Images 2 of 5 · 1.2 MB of
 * 3.4 MB"). The loader only knows what is still to come; this remembers what came since, so the count
 * and the bytes grow instead of shrinking. Images never hold back the board's "Synced": strokes do not
 * wait for them.
 */

import { formatBytes } from './sync-status.js';

/**
 * @typedef {import('../blobs/blob-loader.js').BlobProgress} BlobProgress
 * @typedef {{
 *   uploading: {count: number, sent: number, total: number} | null,
 *   loading: {done: number, count: number, loadedBytes: number, totalBytes: number} | null,
 *   failed: number,
 * }} ImageSummary what the indicator shows; null where nothing is under way
 */

/** Counts images in flight, both ways. */
export class ImageProgress {
  /** Images that came since some were missing, and their bytes; null while none is missing. */
  #batch = null;
  /** @type {Map<object, {sent: number, total: number}>} uploads under way */
  #uploads = new Map();

  /**
   * An image this page was waiting for came.
   * @param {number} bytes its size
   */
  arrived(bytes) {
    if (this.#batch === null) return;
    this.#batch.done += 1;
    this.#batch.bytes += bytes;
  }

  /**
   * An upload started, moved on or ended (`sent` null).
   * @param {object} key one per upload
   * @param {number | null} sent
   * @param {number} [total]
   */
  upload(key, sent, total = 0) {
    if (sent === null) this.#uploads.delete(key);
    else this.#uploads.set(key, { sent, total: Math.max(total, sent) });
  }

  /**
   * What to show, given the loader's progress now.
   * @param {BlobProgress} progress
   * @returns {ImageSummary}
   */
  summary(progress) {
    let loading = null;
    if (progress.pending === 0) this.#batch = null;
    else {
      this.#batch ??= { done: 0, bytes: 0 };
      const { done, bytes } = this.#batch;
      loading = { done, count: done + progress.pending, loadedBytes: bytes + progress.loadedBytes, totalBytes: bytes + progress.totalBytes };
    }
    let uploading = null;
    for (const { sent, total } of this.#uploads.values()) {
      uploading ??= { count: 0, sent: 0, total: 0 };
      uploading.count += 1;
      uploading.sent += sent;
      uploading.total += total;
    }
    return { uploading, loading, failed: progress.failed };
  }
}

/**
 * The indicator's words for images, '' when there is nothing to say.
 * @param {ImageSummary} summary
 * @returns {{state: '' | 'uploading' | 'loading' | 'failed', text: string}} `state` for `data-images`
 */
export function imageProgressText({ uploading, loading, failed }) {
  const parts = [];
  if (uploading !== null) {
    const what = uploading.count === 1 ? 'image' : `${uploading.count} images`;
    parts.push(`Uploading ${what} · ${formatBytes(uploading.sent)} of ${formatBytes(uploading.total)}`);
  }
  if (loading !== null) {
    parts.push(`Images ${loading.done} of ${loading.count} · ${formatBytes(loading.loadedBytes)} of ${formatBytes(loading.totalBytes)}`);
  }
  if (failed > 0) parts.push(`${failed} ${failed === 1 ? 'image' : 'images'} not loaded yet`);
  const state = uploading !== null ? 'uploading' : loading !== null ? 'loading' : failed > 0 ? 'failed' : '';
  return { state, text: parts.join(' · ') };
}
