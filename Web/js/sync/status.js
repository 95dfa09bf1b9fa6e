// What the sync indicator shows: a state, the bytes left each way, and a sentence saying why (DESIGN §1.5:
// the user always sees how much is left to upload and download, and when everything is synced).

/**
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting'} SyncState
 * @typedef {{state: SyncState, bytesToUpload: number, bytesToDownload: number, detail: string}} SyncStatus
 */

/**
 * The status, with its sentence.
 * @param {{
 *   progress: {state: SyncState, bytesToUpload: number, bytesToDownload: number},
 *   failure: Error | null, closed: boolean, onLine: boolean, unreachable: boolean,
 *   changesToUpload: number, storageProblem: string | null
 * }} facts `unreachable`: the last attempt failed before a welcome (then retries show as offline, not
 *   as a flicker of connecting)
 * @returns {SyncStatus}
 */
export function syncStatus({ progress, failure, closed, onLine, unreachable, changesToUpload, storageProblem }) {
  let detail;
  const notOpen = progress.state === 'offline' || progress.state === 'connecting';
  const offline = closed || failure !== null || (notOpen && unreachable);
  if (failure !== null) detail = failure.message;
  else if (closed) detail = 'closed';
  else if (notOpen && !onLine) detail = 'offline: edits are kept on this device and sync when the network returns';
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
        detail = changesToUpload > 0 ? `${changesToUpload} ${changesToUpload === 1 ? 'change' : 'changes'} to upload` : 'uploading';
        break;
      case 'downloading':
        detail = progress.bytesToDownload > 0 ? 'downloading changes' : 'catching up with the server';
        break;
      default:
        detail = 'all changes synced';
    }
  }
  if (storageProblem !== null) detail += `; ${storageProblem}`;
  return { ...progress, state: offline ? 'offline' : progress.state, detail };
}

/**
 * Whether two statuses would show the same.
 * @param {SyncStatus} a
 * @param {SyncStatus} b
 */
export function sameStatus(a, b) {
  return a.state === b.state && a.bytesToUpload === b.bytesToUpload && a.bytesToDownload === b.bytesToDownload && a.detail === b.detail;
}
