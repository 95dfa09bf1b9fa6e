// What the harness pages that run sessions in headless Chromium share (session-harness.html,
// compaction-harness.html): waiting for a condition, for a sync, and a stroke to draw.

/**
 * Resolves once `condition()` holds; rejects after `timeout` ms, naming `what` (or what it returns).
 * @param {() => boolean} condition @param {string | (() => string)} what @param {number} [timeout]
 */
export async function until(condition, what, timeout = 20_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once the session is synced. @param {import('../../../js/sync/session.js').Session} session @param {number} [timeout] */
export const synced = (session, timeout) => until(() => session.status.state === 'synced', () => `sync (${session.status.detail})`, timeout);

/** A small stroke at `x`. @param {number} x */
export const stroke = (x) => ({ op: 'addStroke', colour: 0x884400ff, width: 3, points: [[x, 0], [x + 5, 9], [x + 9, 4]], pressures: null });

/** Runs `body` with a report to fill, then posts it (with the error, if any) to the page server's /result. @param {(report: Record<string, unknown>) => Promise<void>} body */
export async function reportTo(body) {
  const report = {};
  try {
    await body(report);
  } catch (error) {
    report.error = String(error?.stack ?? error);
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
