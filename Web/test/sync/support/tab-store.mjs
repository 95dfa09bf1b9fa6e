// One browser profile's store as a busy tab sees it: the same store, each of its calls about a room's
// access made to wait first, so two tabs' reads and writes of the record interleave as they can in a
// browser.

const ACCESS = new Set(['loadAccess', 'saveAccess', 'updateAccess']);

/**
 * `store`, its access calls each started `ms` later.
 * @template {object} S @param {S} store @param {number} ms @returns {S}
 */
export function tabStore(store, ms) {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      if (!ACCESS.has(String(name))) return value.bind(target);
      return async (/** @type {unknown[]} */ ...args) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return value.apply(target, args);
      };
    },
  });
}
