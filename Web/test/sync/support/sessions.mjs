// Helpers for session tests: strokes to commit, a network to switch off, and waiting for a condition.

import { openSession } from '../../../js/sync/session.js';

/** A stroke of `count` points starting at `x`. */
export function stroke(x, count = 3, colour = 0x3366ffff) {
  return { op: 'addStroke', colour, width: 2, points: Array.from({ length: count }, (_, i) => [x + i, i * 2]), pressures: null };
}

/** A network the test switches: `onLine`, and the events a browser fires. */
export class TestNetwork extends EventTarget {
  onLine = true;

  goOffline() {
    this.onLine = false;
    this.dispatchEvent(new Event('offline'));
  }

  goOnline() {
    this.onLine = true;
    this.dispatchEvent(new Event('online'));
  }
}

/**
 * Opens a session with fast reconnects, on a fake server or a real one.
 * @param {{serverURL?: string, WebSocket?: any, storage: any, room?: string} & Record<string, any>} options
 */
export function open(options) {
  return openSession({
    room: 'room-1',
    serverURL: 'http://127.0.0.1:1',
    name: 'Tester',
    colour: '#3366ff',
    backoff: { minimum: 10, maximum: 100 },
    seed: 1,
    ...options,
  });
}

/**
 * Resolves once `condition()` holds; rejects after `timeout` ms saying what was waited for, and what
 * `state()` (if given) says then, so a rare failure shows where things stood.
 * @param {() => boolean} condition
 * @param {string} what
 * @param {() => string} [state]
 */
export async function until(condition, what, timeout = 10_000, state) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${what}${state === undefined ? '' : `: ${state()}`}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once the session is synced. */
export function synced(session, timeout) {
  return until(() => session.status.state === 'synced', `session ${session.device.slice(0, 6)} to sync (${session.status.detail})`, timeout);
}
