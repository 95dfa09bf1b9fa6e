// The cut a test's snapshot claims: read from the encoded changes it holds.

import { changeOrigin } from '../../../js/wire/change.js';

/**
 * The cut of encoded changes: each replica's newest seq, with its stamp.
 * @param {Uint8Array[]} changes
 * @returns {Map<string, {seq: number, stamp: {wall: number, counter: number}}>}
 */
export function cutOf(changes) {
  const cut = new Map();
  for (const bytes of changes) {
    const { replica, seq, stamp } = changeOrigin(bytes);
    if ((cut.get(replica)?.seq ?? 0) < seq) cut.set(replica, { seq: Number(seq), stamp });
  }
  return cut;
}
