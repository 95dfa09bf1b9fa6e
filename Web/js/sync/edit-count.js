// Counting edits as the people who made them would: a long stroke is saved while it is drawn, an
// `addStroke` and then `appendPoints` every 250 ms (js/app/ink-checkpoints.js), and is one edit, not one a
// quarter second. The review banner counts what is held this way, the sync indicator what is to upload.

import { parseStrokeId } from '../model/ids.js';

/**
 * The keys (`<replica>-<seq>`) of the changes whose strokes `change` only carries on, when every one of
 * its operations appends points to a stroke of its own timeline (a stroke's id names the change that
 * added it, `<replica>-<seq>-<index>`); null otherwise.
 * @param {{id: {replica: string, seq: number}, operations: object[]}} change
 * @returns {string[] | null}
 */
export function strokesContinued(change) {
  const { replica } = change.id;
  if (change.operations.length === 0) return null;
  const keys = [];
  for (const operation of change.operations) {
    const stroke = parseStrokeId(/** @type {any} */ (operation)?.stroke);
    if (/** @type {any} */ (operation)?.op !== 'appendPoints' || stroke === null || stroke.replica !== replica) return null;
    keys.push(`${replica}-${stroke.seq}`);
  }
  return keys;
}

/**
 * How many edits the changes `keys` are: a change that only carries on strokes which other changes among
 * `keys` began counts with them.
 * @param {Iterable<string>} keys
 * @param {(key: string) => string[] | null | undefined} continued what `strokesContinued` gave for a key
 */
export function countEdits(keys, continued) {
  const all = new Set(keys);
  let edits = 0;
  for (const key of all) {
    const begun = continued(key);
    if (!(begun && begun.every((other) => all.has(other)))) edits += 1;
  }
  return edits;
}
