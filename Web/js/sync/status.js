// What the sync indicator shows: a state, the bytes left each way, and a sentence saying why (DESIGN §1.5:
// the user always sees how much is left to upload and download, and when everything is synced); whether
// the user paused sharing, and how many received changes wait for their review; what the link lets this
// page do (view only, or refused), whether the board is still to reach the server or is full there, whether
// its history came in a form this page could not trust, and what arrived and was kept aside unread, in
// plain words.

/**
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting' | 'paused'} SyncState
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting'} ProgressState
 * @typedef {'admin' | 'edit' | 'view'} Rights
 * @typedef {{
 *   state: SyncState, bytesToUpload: number, bytesToDownload: number, detail: string,
 *   changesToUpload: number, paused: boolean, held: number, rights: Rights | null, denied: string | null,
 *   waiting: boolean, full: boolean, unfollowed: boolean, keptAside: string | null
 * }} SyncStatus `paused`: the user paused sharing (the state is `paused` unless the session failed or
 *   closed); `held`: received edits held for review (a long stroke saved while drawn is one); `rights`:
 *   what this page may do in the room (null while unknown, in an open room); `denied`: why the server
 *   refused the link (`notAllowed`, `capabilityRevoked`, `viewOnly`), null unless it did; `waiting`: connected, and the server does not
 *   know the board yet (made offline by someone who has not connected since): the session asks again;
 *   `full`: the server stores no more of this board (its `--room-bytes`): what is drawn stays here;
 *   `unfollowed`: the board's early history came as a snapshot that does not match what this page holds,
 *   so this connection does not follow the board;
 *   `keptAside`: a sentence on the received packs kept aside because they could not be trusted, null for
 *   none
 */

/** What the details say while the server does not know the board yet. */
const WAITING =
  'waiting for this board to reach the server: it opens here by itself once whoever made it connects (if it never does, check the link)';

/** What the details say while the server refuses to store more of the board. */
const FULL = 'this board is full on the server: new changes are kept on this device and are not shared';

/** What the details say when the board's early history came in a form this page could not trust. */
const UNFOLLOWED =
  'the server sent this board’s early history as a summary that does not match what this device holds, so the board is not synced until the next connection; what is drawn here is kept on this device';

/** Why received packs were kept aside, in words. @type {Record<string, string>} */
const ASIDE_REASONS = {
  wrongKey: 'sealed with another key',
  tampered: 'altered on the way',
  unsealed: 'not sealed, on an encrypted board',
  unsupportedEncryption: 'sealed in a way this version cannot open',
  wrongRoom: 'from another board',
  badSignature: 'with a signature that does not verify',
  forgedAuthor: 'holding changes signed by someone else',
};

/**
 * The status, with its sentence.
 * @param {{
 *   progress: {state: ProgressState, bytesToUpload: number, bytesToDownload: number},
 *   failure: Error | null, closed: boolean, onLine: boolean, unreachable: boolean,
 *   changesToUpload: number, storageProblem: string | null, paused?: boolean, held?: number,
 *   rights?: Rights | null, refused?: Record<string, number>, roomUnknown?: boolean, roomFull?: boolean,
 *   unfollowed?: boolean
 * }} facts `unreachable`: the last attempt failed before a welcome (then retries show as offline, not
 *   as a flicker of connecting); `refused`: received packs kept aside, by reason; `roomUnknown`: the
 *   server said it has no such room on this connection; `roomFull`: it said the room is full;
 *   `unfollowed`: the session refused the snapshot the server rebased the board on
 * @returns {SyncStatus}
 */
export function syncStatus({
  progress,
  failure,
  closed,
  onLine,
  unreachable,
  changesToUpload,
  storageProblem,
  paused = false,
  held = 0,
  rights = null,
  refused = {},
  roomUnknown = false,
  roomFull = false,
  unfollowed = false,
}) {
  let detail;
  const notOpen = progress.state === 'offline' || progress.state === 'connecting';
  const offline = closed || failure !== null || (notOpen && unreachable);
  const showsPaused = paused && !closed && failure === null;
  const waiting = roomUnknown && progress.state === 'connecting' && !offline && !showsPaused;
  const full = roomFull && !offline && !showsPaused;
  const notFollowed = unfollowed && !offline && !showsPaused;
  if (failure !== null) detail = failure.message;
  else if (closed) detail = 'closed';
  else if (showsPaused) {
    detail =
      changesToUpload > 0
        ? `sharing paused: ${count(changesToUpload)} kept on this device until you resume`
        : 'sharing paused: nothing is sent or received until you resume';
  } else if (notOpen && !onLine) detail = 'offline: edits are kept on this device and sync when the network returns';
  else if (offline) detail = 'cannot reach the server; trying again';
  else if (waiting) detail = WAITING;
  else if (full) detail = FULL;
  else if (notFollowed) detail = UNFOLLOWED;
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
  const denied = failure?.code === 'accessDenied' ? /** @type {any} */ (failure).reason ?? 'notAllowed' : null;
  if (rights === 'view' && denied === null) detail += '; view only: this link shows the board live and cannot change it';
  if (held > 0) detail += `; ${count(held)} received to review`;
  const keptAside = asideSentence(refused);
  if (keptAside !== null) detail += `; ${keptAside}`;
  if (storageProblem !== null) detail += `; ${storageProblem}`;
  /** @type {SyncState} */
  const state = showsPaused ? 'paused' : offline ? 'offline' : progress.state;
  return { ...progress, state, detail, changesToUpload, paused, held, rights, denied, waiting, full, unfollowed: notFollowed, keptAside };
}

/**
 * "2 received packs kept aside, not shown: sealed with another key", or null for none.
 * @param {Record<string, number>} refused by reason
 */
export function asideSentence(refused) {
  const reasons = Object.entries(refused).filter(([, n]) => n > 0);
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const why = [...new Set(reasons.map(([reason]) => ASIDE_REASONS[reason] ?? 'unreadable'))].join(', ');
  return `${total} received ${total === 1 ? 'pack' : 'packs'} kept aside, not shown: ${why}`;
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
    a.held === b.held &&
    a.rights === b.rights &&
    a.denied === b.denied &&
    a.waiting === b.waiting &&
    a.full === b.full &&
    a.unfollowed === b.unfollowed &&
    a.keptAside === b.keptAside
  );
}

/** "1 change", "3 changes". @param {number} n */
function count(n) {
  return `${n} ${n === 1 ? 'change' : 'changes'}`;
}
