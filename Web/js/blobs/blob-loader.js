// Fetches the images a board names, the ones in view first: each blob once, from the page's cache when it
// is there, else from the server, a few at a time, on a path of its own so strokes never wait for an image.
// Says how far it has got (for the sync indicator), and which blob came, so the board redraws it.

/** Downloads at once: enough to fill a link, few enough that the images in view are not starved. */
const CONCURRENCY = 3;

/** How long a blob that failed waits before it is asked for again. */
const RETRY_MILLISECONDS = 5_000;

/**
 * @typedef {{blob: string, bytes: number, type: string}} ImageRef what an image element names
 * @typedef {{pending: number, loading: number, loadedBytes: number, totalBytes: number, failed: number}} BlobProgress
 * @typedef {(image: ImageRef, onProgress: (loaded: number, total: number) => void) => Promise<Uint8Array>} Download
 */

export class BlobLoader extends EventTarget {
  #download;
  #cache;
  #now;
  #concurrency;
  /** Every blob asked for, by name. @type {Map<string, Entry>} */
  #entries = new Map();
  /** Blobs in view now: fetched before the rest. @type {Set<string>} */
  #visible = new Set();
  #order = 0;
  #running = 0;

  /**
   * @param {{download: Download, cache: import('./blob-cache.js').BlobCache, now?: () => number, concurrency?: number}} options
   */
  constructor({ download, cache, now = () => Date.now(), concurrency = CONCURRENCY }) {
    super();
    this.#download = download;
    this.#cache = cache;
    this.#now = now;
    this.#concurrency = concurrency;
  }

  /**
   * The bytes of a blob that came, or null (asking for it if nobody has).
   * @param {ImageRef} image
   * @returns {{bytes: Uint8Array, type: string} | null}
   */
  want(image) {
    const entry = this.#entry(image);
    if (entry.state === 'failed' && this.#now() - entry.failedAt >= RETRY_MILLISECONDS) {
      entry.state = 'queued';
      entry.loaded = 0;
      this.#pump();
    }
    return entry.state === 'loaded' ? { bytes: entry.bytes, type: entry.type } : null;
  }

  /**
   * Says which blobs are in view: those go first, the others wait for them.
   * @param {Iterable<string>} blobs
   */
  setVisible(blobs) {
    this.#visible = new Set(blobs);
  }

  /** How far the images have got: what the sync indicator shows beside the changes. @returns {BlobProgress} */
  get progress() {
    let pending = 0;
    let loading = 0;
    let failed = 0;
    let loadedBytes = 0;
    let totalBytes = 0;
    for (const entry of this.#entries.values()) {
      if (entry.state === 'loaded') continue;
      if (entry.state === 'failed') {
        failed += 1;
        continue;
      }
      if (entry.state === 'loading') loading += 1;
      pending += 1;
      loadedBytes += entry.loaded;
      totalBytes += Math.max(entry.total, entry.loaded);
    }
    return { pending, loading, loadedBytes, totalBytes, failed };
  }

  /** Takes bytes this page has already, as an image it just uploaded. */
  hold(image, bytes) {
    const entry = this.#entry(image, false);
    Object.assign(entry, { state: 'loaded', bytes, loaded: bytes.length });
    this.#dispatch('loaded', image.blob);
    void this.#cache.put(image.blob, { bytes, type: image.type });
  }

  #entry(image, start = true) {
    let entry = this.#entries.get(image.blob);
    if (entry === undefined) {
      entry = { image, type: image.type, state: 'queued', order: this.#order++, loaded: 0, total: image.bytes, bytes: null, failedAt: 0 };
      this.#entries.set(image.blob, entry);
      if (start) this.#pump();
    }
    return entry;
  }

  /** Starts the next downloads: in view first, then in the order asked. */
  #pump() {
    while (this.#running < this.#concurrency) {
      let next = null;
      for (const entry of this.#entries.values()) {
        if (entry.state !== 'queued') continue;
        if (next === null || this.#before(entry, next)) next = entry;
      }
      if (next === null) return;
      this.#start(next);
    }
  }

  #before(a, b) {
    const aVisible = this.#visible.has(a.image.blob);
    const bVisible = this.#visible.has(b.image.blob);
    return aVisible !== bVisible ? aVisible : a.order < b.order;
  }

  async #start(entry) {
    entry.state = 'loading';
    this.#running += 1;
    this.#dispatch('progress');
    try {
      const cached = await this.#cache.get(entry.image.blob);
      const bytes =
        cached?.bytes ??
        (await this.#download(entry.image, (loaded, total) => {
          entry.loaded = loaded;
          entry.total = total;
          this.#dispatch('progress');
        }));
      if (cached === null) await this.#cache.put(entry.image.blob, { bytes, type: entry.type });
      Object.assign(entry, { state: 'loaded', bytes, loaded: bytes.length });
      this.#dispatch('loaded', entry.image.blob);
    } catch (error) {
      Object.assign(entry, { state: 'failed', failedAt: this.#now(), error });
      this.#dispatch('failed', entry.image.blob, error);
    } finally {
      this.#running -= 1;
      this.#dispatch('progress');
      this.#pump();
    }
  }

  #dispatch(type, blob, error) {
    this.dispatchEvent(new CustomEvent(type, { detail: { blob, error, progress: this.progress } }));
  }
}

/** @typedef {{image: ImageRef, type: string, state: 'queued' | 'loading' | 'loaded' | 'failed', order: number, loaded: number, total: number, bytes: Uint8Array | null, failedAt: number, error?: unknown}} Entry */
