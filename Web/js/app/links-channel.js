/**
 * Keeps the tabs of one board in a browser profile in step when one of them replaces a link. The tab that
 * replaced it has kept the new record in the store (IndexedDB, shared by the profile's tabs), then says so
 * on a BroadcastChannel named after the room; every other tab of the board reads the store again and takes
 * what it holds (`session.adoptAccess`): its share dialog and address show the links that work, and a tab
 * subscribed with the replaced one switches to the new one (it is the same admin) instead of being told
 * the link no longer works.
 *
 * The message carries no capability: the store is the one place they are kept, so a tab acts on what is
 * stored now, whatever order messages arrive in, and a tab opened later reads the same record anyway.
 *
 * The tab that replaced a link reads the store again too: when two tabs replace links at the same moment,
 * one may have read the other's record before its own write and taken it after, going back on its own
 * replacement for a moment; the read after its write comes last and ends on the store's record, which
 * holds both (session.js `replaceLink`).
 */

/**
 * The channel's name for a room: one channel a board, so a tab hears only of its own board.
 * @param {string} room
 */
export function linksChannelName(room) {
  return `inkwell-links:${room}`;
}

/**
 * @typedef {import('../sync/store-records.js').AccessRecord} AccessRecord
 * @typedef {{
 *   postMessage(message: unknown): void, close(): void,
 *   addEventListener(type: 'message', listener: (event: {data: unknown}) => void): void
 * }} Channel what is used of a BroadcastChannel
 */

export class LinksChannel {
  #room;
  #load;
  #adopt;
  /** @type {Channel | null} */
  #channel;
  /** Reads of the store, one after another: each takes what is stored when it runs. */
  #reads = Promise.resolve(false);

  /**
   * @param {{
   *   room: string,
   *   load: () => Promise<AccessRecord | null>,
   *   adopt: (stored: AccessRecord | null) => Promise<boolean>,
   *   BroadcastChannel?: (new (name: string) => Channel) | undefined
   * }} options `load` reads the room's record from the store; `adopt` takes it (true when it changed
   *   something); `BroadcastChannel` defaults to the browser's (without one, tabs are not told)
   */
  constructor({ room, load, adopt, BroadcastChannel: Channel = globalThis.BroadcastChannel }) {
    this.#room = room;
    this.#load = load;
    this.#adopt = adopt;
    this.#channel = typeof Channel === 'function' ? new Channel(linksChannelName(room)) : null;
    this.#channel?.addEventListener('message', (event) => {
      const data = /** @type {{type?: unknown, room?: unknown} | null} */ (event.data);
      if (data?.type === 'links' && data.room === room) void this.refresh();
    });
  }

  /**
   * Replaces a link with `replaceLink` (the session's), tells the board's other tabs, and takes what the
   * store holds then.
   * @template T @param {() => Promise<T>} replaceLink @returns {Promise<T>} what `replaceLink` resolves with
   */
  async replace(replaceLink) {
    const record = await replaceLink();
    this.announce();
    await this.refresh();
    return record;
  }

  /** Tells the board's other tabs that the store holds new links (call it once they are stored). */
  announce() {
    this.#channel?.postMessage({ type: 'links', room: this.#room });
  }

  /**
   * Reads the store and takes what it holds, after any read under way.
   * @returns {Promise<boolean>} whether it changed anything here (false too when the store could not be read)
   */
  refresh() {
    const read = this.#reads.then(async () => this.#adopt(await this.#load())).catch(() => false);
    this.#reads = read;
    return read;
  }

  /** Stops listening (the page is going). */
  close() {
    this.#channel?.close();
    this.#channel = null;
  }
}
