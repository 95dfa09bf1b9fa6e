// What the sync indicator shows: a state, the bytes left each way, and a sentence saying why (DESIGN §1.5:
// the user always sees how much is left to upload and download, and when everything is synced); whether
// the user paused sharing, and how many received changes wait for their review.

/**
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting' | 'paused'} SyncState
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting'} ProgressState
 * @typedef {{
 *   state: SyncState, bytesToUpload: number, bytesToDownload: number, detail: string,
 *   changesToUpload: number, paused: boolean, held: number
 * }} SyncStatus `paused`: the user paused sharing (the state is `paused` unless the session failed or
 *   closed); `held`: received changes held for review
 */

/**
 * The status, with its sentence.
 * @param {{
 *   progress: {state: ProgressState, bytesToUpload: number, bytesToDownload: number},
 *   failure: Error | null, closed: boolean, onLine: boolean, unreachable: boolean,
 *   changesToUpload: number, storageProblem: string | null, paused?: boolean, held?: number
 * }} facts `unreachable`: the last attempt failed before a welcome (then retries show as offline, not
 *   as a flicker of connecting)
 * @returns {SyncStatus}
 */
export function syncStatus({ progress, failure, closed, onLine, unreachable, changesToUpload, storageProblem, paused = false, held = 0 }) {
  let detail;
  const notOpen = progress.state === 'offline' || progress.state === 'connecting';
  const offline = closed || failure !== null || (notOpen && unreachable);
  const showsPaused = paused && !closed && failure === null;
  if (failure !== null) detail = failure.message;
  else if (closed) detail = 'closed';
  else if (showsPaused) {
    detail =
      changesToUpload > 0
        ? `sharing paused: ${count(changesToUpload)} kept on this device until you resume`
        : 'sharing paused: nothing is sent or received until you resume';
  } else if (notOpen && !onLine) detail = 'offline: edits are kept on this device and sync when the network returns';
  else if (offline) detail = 'cannot reach the server; trying again';
  else {
    switch (progress.state) {
      case 'offline':
        detail = 'not connected; trying again';
        break;
      case 'connecting':
        detail = 'connecting to the server';
        break;
      case 'uploading':
        detail = changesToUpload > 0 ? `${count(changesToUpload)} to upload` : 'uploading';
        break;
      case 'downloading':
        detail = progress.bytesToDownload > 0 ? 'downloading changes' : 'catching up with the server';
        break;
      default:
        detail = 'all changes synced';
    }
  }
  if (held > 0) detail += `; ${count(held)} received to review`;
  if (storageProblem !== null) detail += `; ${storageProblem}`;
  /** @type {SyncState} */
  const state = showsPaused ? 'paused' : offline ? 'offline' : progress.state;
  return { ...progress, state, detail, changesToUpload, paused, held };
}

/**
 * Whether two statuses would show the same.
 * @param {SyncStatus} a
 * @param {SyncStatus} b
 */
export function sameStatus(a, b) {
  return (
    a.state === b.state &&
    a.bytesToUpload === b.bytesToUpload &&
    a.bytesToDownload === b.bytesToDownload &&
    a.detail === b.detail &&
    a.changesToUpload === b.changesToUpload &&
    a.paused === b.paused &&
    a.held === b.held
  );
}

/** "1 change", "3 changes". @param {number} n */
function count(n) {
  return `${n} ${n === 1 ? 'change' : 'changes'}`;
}
