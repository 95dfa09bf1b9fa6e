/**
 * What the sync indicator says for a session status: honest sync (DESIGN §1.5) in a word or two, whether
 * sharing is paused (and how many changes wait for it), how many received changes wait for review,
 * when the server refused the page's link, when it does not know the board yet (calmly: the page asks
 * again, and opens the board once its maker has connected), when it stores no more of it, and when the
 * board's history came in a form this page could not trust; the details add what the link lets this page do
 * and what was received and kept aside unread.
 */

/**
 * @typedef {{state: string, bytesToUpload?: number, bytesToDownload?: number, detail?: string,
 *   changesToUpload?: number, paused?: boolean, held?: number, rights?: string | null, denied?: string | null,
 *   waiting?: boolean, full?: boolean, unfollowed?: boolean, keptAside?: string | null}} SessionStatus
 * @typedef {'synced' | 'uploading' | 'downloading' | 'offline' | 'paused'} IndicatorState
 */

/**
 * A byte count for people: "512 B", "12 KB", "3.4 MB" (1 KB = 1,024 bytes; at least 1 KB once above 0.5).
 * @param {number} bytes
 */
export function formatBytes(bytes) {
  const n = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  if (n < 512) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024))} KB`;
  const mb = n / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/**
 * The indicator's state (the `data-state` tests read) and text. A session still connecting counts as
 * offline: nothing reaches the server yet. Changes held for review add "· N to review" to any state.
 * @param {SessionStatus} status
 * @returns {{state: IndicatorState, text: string}}
 */
export function indicatorFor(status) {
  const shown = stateFor(status);
  const held = status?.held ?? 0;
  return held > 0 ? { ...shown, text: `${shown.text} · ${held} to review` } : shown;
}

/** @param {SessionStatus} status @returns {{state: IndicatorState, text: string}} */
function stateFor(status) {
  const up = status?.bytesToUpload ?? 0;
  const down = status?.bytesToDownload ?? 0;
  if (status?.denied) return { state: 'offline', text: 'No access' };
  // Nothing reaches the server yet, as offline; but nothing is wrong here either.
  if (status?.waiting) return { state: 'offline', text: up > 0 ? `Waiting for board · ${formatBytes(up)} to upload` : 'Waiting for board' };
  // The server stores no more of the board: what is drawn here stays here, and says how much.
  if (status?.full) return { state: 'offline', text: up > 0 ? `Board full · ${formatBytes(up)} kept here` : 'Board full' };
  // The board's history came as a summary this page refused: nothing is exchanged until the next connection.
  if (status?.unfollowed) return { state: 'offline', text: up > 0 ? `Not syncing · ${formatBytes(up)} kept here` : 'Not syncing' };
  switch (status?.state) {
    case 'paused': {
      const waiting = status?.changesToUpload ?? 0;
      return { state: 'paused', text: waiting > 0 ? `Paused · ${waiting} ${waiting === 1 ? 'change' : 'changes'} to upload` : 'Paused' };
    }
    case 'synced':
      return { state: 'synced', text: 'Synced' };
    case 'uploading':
      return { state: 'uploading', text: `Uploading ${formatBytes(up)}` };
    case 'downloading':
      return { state: 'downloading', text: `Downloading ${formatBytes(down)}` };
    case 'connecting':
      return { state: 'offline', text: up > 0 ? `Connecting… ${formatBytes(up)} to upload` : 'Connecting…' };
    default:
      return { state: 'offline', text: up > 0 ? `Offline · ${formatBytes(up)} to upload` : 'Offline' };
  }
}

/** What each of the server's answers lets this page do. @type {Record<string, string>} */
const RIGHTS = {
  view: 'view only: you see changes live, and cannot draw',
  edit: 'can draw',
  admin: 'can draw, and replace the board’s links (you made it)',
};

/**
 * The lines of the details popover.
 * @param {SessionStatus} status
 * @param {{room: string, device?: string, peers: number, online: boolean}} context
 * @returns {[string, string][]} label and value
 */
export function statusDetails(status, { room, device, peers, online }) {
  const rows = [
    ['Status', indicatorFor(status).text],
    ['To upload', formatBytes(status?.bytesToUpload ?? 0)],
    ['To download', formatBytes(status?.bytesToDownload ?? 0)],
    ...(status?.held ? [['To review', `${status.held} ${status.held === 1 ? 'change' : 'changes'} received`]] : []),
    ...(status?.rights ? [['This link', RIGHTS[status.rights] ?? status.rights]] : []),
    ...(status?.keptAside ? [['Kept aside', status.keptAside]] : []),
    ['Network', online ? 'online' : 'offline'],
    ['Others here', String(peers)],
    ['Room', room],
  ];
  if (device) rows.push(['This device', device.slice(0, 8)]);
  if (status?.detail) rows.push(['Detail', status.detail]);
  return rows;
}
