/**
 * Who this person is to the others in a room: a display name and a colour for their cursor, kept in
 * localStorage so they stay the same across visits and rooms.
 */

const KEY = 'inkwell.identity';

/** Cursor colours: distinct hues that read on both themes. */
export const IDENTITY_COLOURS = Object.freeze([
  0xe03131ff, 0xf08c00ff, 0x2f9e44ff, 0x1971c2ff, 0x6741d9ff, 0xc2255cff, 0x0c8599ff, 0x862e9cff,
]);

const ADJECTIVES = ['Amber', 'Brisk', 'Calm', 'Deft', 'Eager', 'Fleet', 'Gentle', 'Keen', 'Lucid', 'Merry', 'Nimble', 'Quiet'];
const ANIMALS = ['Otter', 'Heron', 'Fox', 'Lynx', 'Wren', 'Badger', 'Marten', 'Finch', 'Hare', 'Ibis', 'Seal', 'Owl'];

/** The longest display name kept, in characters. */
export const MAXIMUM_NAME_LENGTH = 40;

/**
 * @typedef {{name: string, colour: number}} Identity
 */

/**
 * The stored identity, or a new one (a friendly random name and colour) that is stored at once.
 * @param {Storage | null} storage `localStorage`; null or one that throws (private modes) keeps it in memory
 * @param {() => number} [random] in [0, 1)
 * @returns {Identity}
 */
export function loadIdentity(storage, random = Math.random) {
  const stored = readStored(storage);
  if (stored !== null) return stored;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const identity = { name: `${pick(ADJECTIVES)} ${pick(ANIMALS)}`, colour: pick(IDENTITY_COLOURS) };
  saveIdentity(storage, identity);
  return identity;
}

/**
 * Keeps the identity for later visits; a storage that refuses is ignored.
 * @param {Storage | null} storage
 * @param {Identity} identity
 */
export function saveIdentity(storage, identity) {
  try {
    storage?.setItem(KEY, JSON.stringify({ name: identity.name, colour: identity.colour }));
  } catch {
    // Private browsing or a full quota: the name lasts for this visit only.
  }
}

/**
 * A name as typed, made fit to show: trimmed, inner whitespace collapsed, at most 40 characters;
 * empty becomes null.
 * @param {string} text
 * @returns {string | null}
 */
export function cleanName(text) {
  const name = String(text ?? '').replace(/\s+/g, ' ').trim();
  return name === '' ? null : [...name].slice(0, MAXIMUM_NAME_LENGTH).join('');
}

function readStored(storage) {
  try {
    const value = JSON.parse(storage?.getItem(KEY) ?? 'null');
    const name = cleanName(value?.name);
    const colour = value?.colour;
    if (name === null || !Number.isInteger(colour) || colour < 0 || colour > 0xffffffff) return null;
    return { name, colour };
  } catch {
    return null;
  }
}
