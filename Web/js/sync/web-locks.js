// Leases through the Web Locks API: a lock held for as long as the page wants it, released by the page
// or by the browser when the tab goes away (so a crashed tab never keeps a timeline).

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
