// Leases and turns through the Web Locks API: a lock held for as long as the page wants it, released by the
// page or by the browser when the tab goes away (so a crashed tab never keeps a timeline or a turn); and
// turns within one page, where there is no LockManager.

/**
 * Takes the lock `name` if no one holds it.
 * @param {LockManager} locks `navigator.locks`
 * @param {string} name
 * @returns {Promise<(() => void) | null>} the function that releases it, or null if it is held elsewhere
 */
export function tryLock(locks, name) {
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, async (lock) => {
        if (lock === null) {
          resolve(null);
          return;
        }
        resolve(release);
        await held;
      })
      .catch(reject);
  });
}

/**
 * Runs `body` holding the lock `name`, once every tab that asked for it before has let it go.
 * @template T
 * @param {LockManager} locks `navigator.locks`
 * @param {string} name
 * @param {() => Promise<T>} body
 * @returns {Promise<T>} what `body` resolves with, or its error
 */
export function withLock(locks, name, body) {
  return locks.request(name, () => body());
}

/**
 * Turns taken by name within one page, one after another: what serializes a page's own work where there
 * are no Web Locks to serialize it with other tabs' (a store in memory, a browser without them).
 */
export class Turns {
  /** The end of each name's last turn. @type {Map<string, Promise<void>>} */
  #tails = new Map();

  /**
   * Runs `body` once the turns taken before under `name` have ended, however they ended.
   * @template T @param {string} name @param {() => Promise<T>} body @returns {Promise<T>}
   */
  run(name, body) {
    const turn = (this.#tails.get(name) ?? Promise.resolve()).then(() => body());
    const tail = turn.then(
      () => {},
      () => {},
    );
    this.#tails.set(name, tail);
    void tail.then(() => {
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    });
    return turn;
  }
}
