/**
 * Room ids and paths: `/r/<room>` names a room; a new board gets an unguessable id (board-access.js makes
 * one for `/`, with its links and key; link.js reads and writes whole links).
 *
 * Room names follow the sync protocol (Swift's `SyncProtocol.isValidRoom`): 1 to 128 of
 * `A-Z a-z 0-9 . _ -`, so they are safe in URLs, file names and logs.
 */

const ROOM_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 22 letters of 62: about 131 bits, as hard to guess as a random UUID. */
const ID_LENGTH = 22;

/**
 * Whether `room` is a name the server accepts.
 * @param {unknown} room
 * @returns {boolean}
 */
export function isValidRoom(room) {
  return typeof room === 'string' && ROOM_PATTERN.test(room);
}

/**
 * A new room id: 22 letters and digits drawn without bias (bytes of 248 and above are redrawn).
 * @param {(bytes: Uint8Array) => Uint8Array} [fillRandom] inject a seeded source in tests
 * @returns {string}
 */
export function newRoomId(fillRandom = (bytes) => crypto.getRandomValues(bytes)) {
  let id = '';
  const bytes = new Uint8Array(32);
  while (id.length < ID_LENGTH) {
    fillRandom(bytes);
    for (const byte of bytes) {
      // 248 = 4 × 62: above it, `byte % 62` would favour the first letters.
      if (byte < 248 && id.length < ID_LENGTH) id += ALPHABET[byte % 62];
    }
  }
  return id;
}

/**
 * The room a path names (`/r/<room>`, with or without a trailing slash), or null.
 * @param {string} pathname e.g. `location.pathname`
 * @returns {string | null}
 */
export function roomFromPath(pathname) {
  const match = /^\/r\/([^/]+)\/?$/.exec(pathname);
  if (match === null) return null;
  let room;
  try {
    room = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return isValidRoom(room) ? room : null;
}

/**
 * The page's path for a room.
 * @param {string} room
 * @returns {string}
 */
export function roomPath(room) {
  return `/r/${room}`;
}
