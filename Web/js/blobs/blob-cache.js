// The page's offline copy of the images it has seen: each blob's opened bytes, kept in IndexedDB by its
// name, so a board shows its images with no network once they came, and never fetches one twice. A blob's
// name is the hash of the bytes as uploaded, so one name is one image everywhere; the cache is the
// browser's, shared by every board of the origin.

const DATABASE = 'inkwell-blobs';
const STORE = 'blobs';

/**
 * @typedef {{bytes: Uint8Array, type: string}} CachedBlob
 * @typedef {{get(blob: string): Promise<CachedBlob | null>, put(blob: string, value: CachedBlob): Promise<void>}} BlobCache
 */

/** A cache in memory: for tests, and for a browser without IndexedDB (private windows of some). */
export class MemoryBlobCache {
  /** @type {Map<string, CachedBlob>} */
  #blobs = new Map();

  async get(blob) {
    return this.#blobs.get(blob) ?? null;
  }

  async put(blob, value) {
    this.#blobs.set(blob, { bytes: value.bytes, type: value.type });
  }
}

/**
 * Opens the origin's blob cache in IndexedDB; a cache in memory when IndexedDB cannot be opened.
 * @param {IDBFactory | undefined} [factory]
 * @returns {Promise<BlobCache>}
 */
export async function openBlobCache(factory = globalThis.indexedDB) {
  if (factory === undefined) return new MemoryBlobCache();
  let database;
  try {
    database = await new Promise((resolve, reject) => {
      const request = factory.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('the blob cache is held by an older page'));
    });
  } catch {
    return new MemoryBlobCache();
  }
  return new IndexedDBBlobCache(database);
}

class IndexedDBBlobCache {
  #database;

  /** @param {IDBDatabase} database */
  constructor(database) {
    this.#database = database;
  }

  async get(blob) {
    const value = await this.#request('readonly', (store) => store.get(blob));
    return value === undefined ? null : { bytes: new Uint8Array(value.bytes), type: value.type };
  }

  async put(blob, value) {
    // A full disk loses only the offline copy: the image is fetched again next time.
    try {
      await this.#request('readwrite', (store) => store.put({ bytes: value.bytes, type: value.type }, blob));
    } catch {
      // Nothing to do: the bytes in hand still show.
    }
  }

  #request(mode, body) {
    return new Promise((resolve, reject) => {
      const transaction = this.#database.transaction(STORE, mode);
      const request = body(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }
}
