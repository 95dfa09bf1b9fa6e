// Board links (js/app/link.js), the access a device keeps for a board (js/sync/access.js), and which
// board the page opens with what access (js/app/board-access.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveBoard, showLink } from '../../js/app/board-access.js';
import { formatLink, linkPath, parseLink } from '../../js/app/link.js';
import { creationHashes, heldRights, newBoardAccess, shareable, subscribeCapability, withCapability, withLink } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { parseCapability } from '../../js/wire/capability.js';
import { parseRoomKey } from '../../js/wire/room-key.js';
import { tabStore } from '../sync/support/tab-store.mjs';

const EDIT = `e${'Ab-_'.repeat(10)}AbA`;
const VIEW = `v${'Zz09'.repeat(10)}Zz0`;
const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';

/** A page at `url` whose replaceState is recorded. */
function page(url) {
  const parsed = new URL(url, 'https://ink.example');
  const replaced = [];
  return {
    location: { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash },
    history: { replaceState: (_, __, to) => replaced.push(to) },
    replaced,
  };
}

test('a link is /r/ROOM?cap=CAPABILITY#key=KEY, and parses back', () => {
  const link = { room: 'Kq3Zt0aLw9PxYbN2mR7sVc', capability: EDIT, key: KEY };
  const text = formatLink('https://ink.example', link);
  assert.equal(text, `https://ink.example/r/Kq3Zt0aLw9PxYbN2mR7sVc?cap=${EDIT}#key=${KEY}`, 'base64url needs no escaping');
  const url = new URL(text);
  assert.deepEqual(parseLink(url), link);
  assert.equal(formatLink('https://ink.example', { room: 'r', capability: EDIT }), `https://ink.example/r/r?cap=${EDIT}`, 'a plain board');
  assert.equal(formatLink('https://ink.example', { room: 'open-room' }), 'https://ink.example/r/open-room', 'an open room');
  assert.deepEqual(parseLink({ pathname: '/r/open-room', search: '', hash: '' }), { room: 'open-room', capability: null, key: null });
  assert.deepEqual(parseLink({ pathname: '/r/a', search: '?cap=', hash: '#key=' }), { room: 'a', capability: null, key: null });
  assert.equal(parseLink({ pathname: '/', search: `?cap=${EDIT}`, hash: '' }), null, 'no room: a new board');
  assert.equal(linkPath({ room: 'r', capability: VIEW, key: KEY }, '?review-after=0&cap=old'), `/r/r?review-after=0&cap=${VIEW}#key=${KEY}`, 'the page keeps its other parameters');
});

test('a new board holds three capabilities of their kinds and a key; the maker registers it and subscribes as admin', async () => {
  const board = newBoardAccess('room');
  assert.deepEqual(['admin', 'edit', 'view'].map((kind) => parseCapability(board[kind])?.kind), ['admin', 'edit', 'view']);
  assert.equal(parseRoomKey(board.key)?.length, 32);
  assert.equal(newBoardAccess('room', { encrypted: false }).key, null);
  assert.equal(heldRights(board), 'admin');
  assert.equal(subscribeCapability(board), board.admin);
  const hashes = await creationHashes(board);
  assert.deepEqual(Object.keys(hashes), ['adminHash', 'editHash', 'viewHash']);
  assert.ok(Object.values(hashes).every((hash) => hash.length === 32));
  assert.deepEqual(shareable(board), { edit: board.edit, view: board.view, key: board.key, open: false });
  assert.notEqual(newBoardAccess('room').edit, board.edit, 'fresh each time');
});

test('a link adds its capability under its kind and its key to what the device held', async () => {
  const viewer = withLink(null, { room: 'r', capability: VIEW, key: KEY });
  assert.deepEqual(viewer, { room: 'r', admin: null, edit: null, view: VIEW, key: KEY });
  assert.equal(heldRights(viewer), 'view');
  assert.equal(await creationHashes(viewer), null, 'only the maker registers the board');
  assert.deepEqual(shareable(viewer), { edit: null, view: VIEW, key: KEY, open: false });
  const both = withLink(viewer, { room: 'r', capability: EDIT, key: null });
  assert.equal(heldRights(both), 'edit');
  assert.equal(both.key, KEY, 'the key stays');
  assert.equal(subscribeCapability(both), EDIT);
  assert.equal(withLink(null, { room: 'r', capability: 'garbled', key: 'not-a-key' }).edit, 'garbled', 'the server says what a garbled one opens');
  assert.equal(withLink(null, { room: 'r', capability: 'garbled', key: 'not-a-key' }).key, null);
  assert.equal(heldRights(null), null, 'an open room');
  assert.equal(subscribeCapability(null), '');
  assert.equal(withCapability(both, { kind: 'view', text: `v${'Q'.repeat(43)}` }).view, `v${'Q'.repeat(43)}`);
});

test('/ makes a new board: kept in the store, admin included, and the address shows its edit link', async () => {
  const store = new MemoryStore();
  const visit = page('/?review-after=0');
  const { room, access, created } = await resolveBoard(visit, store, { makeId: () => 'NewRoom' });
  assert.equal(created, true);
  assert.equal(room, 'NewRoom');
  assert.deepEqual(await store.loadAccess('NewRoom'), access);
  assert.ok(access.admin && access.edit && access.view && access.key);
  assert.deepEqual(visit.replaced, [`/r/NewRoom?review-after=0&cap=${access.edit}#key=${access.key}`]);

  // A reload at that address opens the same board with the same access, the address untouched.
  const reload = page(visit.replaced[0]);
  const again = await resolveBoard(reload, store, { makeId: () => 'Other' });
  assert.deepEqual(again, { room: 'NewRoom', access, created: false });
  assert.deepEqual(reload.replaced, []);

  // The bare room path on this device still opens it with what it holds, and shows the link.
  const bare = page('/r/NewRoom');
  assert.deepEqual((await resolveBoard(bare, store)).access, access);
  assert.deepEqual(bare.replaced, [`/r/NewRoom?cap=${access.edit}#key=${access.key}`]);
});

test('a link is kept on the device; a bare room name with nothing kept is an open room', async () => {
  const store = new MemoryStore();
  const visit = page(`/r/Board?cap=${VIEW}#key=${KEY}`);
  const { access } = await resolveBoard(visit, store);
  assert.deepEqual(access, { room: 'Board', admin: null, edit: null, view: VIEW, key: KEY });
  assert.deepEqual(await store.loadAccess('Board'), access);
  assert.deepEqual(visit.replaced, [], 'the link stays as it is');
  const open = page('/r/open-room');
  assert.deepEqual(await resolveBoard(open, store), { room: 'open-room', access: null, created: false });
  assert.equal(await store.loadAccess('open-room'), null, 'nothing kept for an open room');
  const shown = page('/r/x');
  showLink(shown, { room: 'x', admin: null, edit: null, view: VIEW, key: null });
  assert.deepEqual(shown.replaced, [`/r/x?cap=${VIEW}`], 'a view-only holder shows its view link');
});

test('on the maker’s device an old link (replaced since) changes nothing kept, and the address shows the current one', async () => {
  const store = new MemoryStore();
  const { access } = await resolveBoard(page('/'), store, { makeId: () => 'Made' });
  const current = { ...access, edit: `e${'Q'.repeat(43)}`, view: `v${'Q'.repeat(43)}` };
  await store.saveAccess(current);
  for (const old of [access.edit, access.view]) {
    const stale = page(`/r/Made?review-after=0&cap=${old}#key=${access.key}`);
    const opened = await resolveBoard(stale, store);
    assert.deepEqual(opened.access, current, 'the replaced link is not kept');
    assert.deepEqual(await store.loadAccess('Made'), current);
    assert.deepEqual(stale.replaced, [`/r/Made?review-after=0&cap=${current.edit}#key=${access.key}`]);
  }
  assert.equal(withLink(current, { room: 'Made', capability: access.view, key: null }).view, current.view);
  // Elsewhere the newest link is the one that works, as before.
  const holder = withLink(null, { room: 'r', capability: VIEW, key: KEY });
  assert.equal(withLink(holder, { room: 'r', capability: `v${'Q'.repeat(43)}`, key: null }).view, `v${'Q'.repeat(43)}`);
});

test('two tabs opening a board’s edit and view links at once keep both: the record is read and written in one step', async () => {
  const store = new MemoryStore();
  const [edit, view] = await Promise.all([
    resolveBoard(page(`/r/Board?cap=${EDIT}#key=${KEY}`), tabStore(store, 20)),
    resolveBoard(page(`/r/Board?cap=${VIEW}#key=${KEY}`), tabStore(store, 20)),
  ]);
  assert.deepEqual(await store.loadAccess('Board'), { room: 'Board', admin: null, edit: EDIT, view: VIEW, key: KEY });
  assert.equal(edit.access.edit, EDIT);
  assert.equal(view.access.view, VIEW);
});
