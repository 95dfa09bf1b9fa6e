// The session's status and its sentence (js/sync/status.js): paused and held for review among the rest.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameStatus, syncStatus } from '../../js/sync/status.js';

const facts = {
  progress: { state: 'offline', bytesToUpload: 0, bytesToDownload: 0 },
  failure: null,
  closed: false,
  onLine: true,
  unreachable: false,
  changesToUpload: 0,
  storageProblem: null,
};

test('a paused session says so, with what waits, whatever the network', () => {
  assert.deepEqual(syncStatus({ ...facts, paused: true }), {
    state: 'paused',
    bytesToUpload: 0,
    bytesToDownload: 0,
    detail: 'sharing paused: nothing is sent or received until you resume',
    changesToUpload: 0,
    paused: true,
    held: 0,
    rights: null,
    denied: null,
    waiting: false,
    full: false,
    unfollowed: false,
    keptAside: null,
  });
  const waiting = syncStatus({ ...facts, onLine: false, unreachable: true, paused: true, changesToUpload: 2, progress: { ...facts.progress, bytesToUpload: 300 } });
  assert.equal(waiting.state, 'paused');
  assert.equal(waiting.detail, 'sharing paused: 2 changes kept on this device until you resume');
  assert.equal(waiting.bytesToUpload, 300);
});

test('a failure or a close shows over a pause', () => {
  assert.equal(syncStatus({ ...facts, paused: true, failure: new Error('please update the app') }).state, 'offline');
  assert.equal(syncStatus({ ...facts, paused: true, failure: new Error('please update the app') }).detail, 'please update the app');
  const closed = syncStatus({ ...facts, paused: true, closed: true });
  assert.equal(closed.state, 'offline');
  assert.equal(closed.paused, true, 'the choice is still reported');
});

test('changes held for review are counted in the status and its sentence', () => {
  const status = syncStatus({ ...facts, progress: { state: 'synced', bytesToUpload: 0, bytesToDownload: 0 }, held: 3 });
  assert.equal(status.state, 'synced', 'held changes are received: sync is honest about it');
  assert.equal(status.held, 3);
  assert.equal(status.detail, 'all changes synced; 3 changes received to review');
  assert.equal(sameStatus(status, { ...status, held: 2 }), false);
  assert.equal(sameStatus(status, { ...status, paused: true }), false);
  assert.equal(sameStatus(status, { ...status, changesToUpload: 1 }), false);
  assert.equal(sameStatus(status, { ...status }), true);
});

test('a view link, a refused link and packs kept aside are said in plain words', () => {
  const synced = { ...facts, progress: { state: 'synced', bytesToUpload: 0, bytesToDownload: 0 } };
  const view = syncStatus({ ...synced, rights: 'view' });
  assert.equal(view.rights, 'view');
  assert.match(view.detail, /^all changes synced; view only/);
  assert.equal(sameStatus(view, syncStatus({ ...synced, rights: 'edit' })), false);

  const denied = { code: 'accessDenied', reason: 'capabilityRevoked', message: 'This link was replaced and no longer works: ask for a new one' };
  const refused = syncStatus({ ...facts, failure: /** @type {any} */ (denied), rights: 'view' });
  assert.equal(refused.state, 'offline');
  assert.equal(refused.denied, 'capabilityRevoked');
  assert.equal(refused.detail, denied.message, 'no view-only note on a link that does not work');

  const aside = syncStatus({ ...synced, refused: { wrongKey: 2, tampered: 1 } });
  assert.equal(aside.keptAside, '3 received packs kept aside, not shown: sealed with another key, altered on the way');
  assert.match(aside.detail, /; 3 received packs kept aside/);
  assert.equal(sameStatus(aside, syncStatus({ ...synced, refused: { wrongKey: 3 } })), false);
  assert.equal(syncStatus({ ...synced, refused: { unsealed: 1 } }).keptAside, '1 received pack kept aside, not shown: not sealed, on an encrypted board');
});

test('a board the server does not know yet is waited for, calmly, while connected; offline, pause and failure say their own', () => {
  const asking = { ...facts, progress: { state: 'connecting', bytesToUpload: 0, bytesToDownload: 0 }, roomUnknown: true };
  const waiting = syncStatus(asking);
  assert.equal(waiting.waiting, true);
  assert.equal(waiting.state, 'connecting');
  assert.equal(waiting.denied, null, 'not a refusal');
  assert.match(waiting.detail, /^waiting for this board to reach the server: it opens here by itself once whoever made it connects/);
  assert.equal(sameStatus(waiting, syncStatus({ ...asking, roomUnknown: false })), false);
  assert.equal(syncStatus({ ...asking, roomUnknown: false }).waiting, false);
  assert.equal(syncStatus({ ...asking, progress: { ...asking.progress, state: 'offline' } }).waiting, false, 'the connection ended');
  assert.equal(syncStatus({ ...asking, paused: true }).waiting, false);
  assert.equal(syncStatus({ ...asking, closed: true }).waiting, false);
  const denied = { code: 'accessDenied', reason: 'notAllowed', message: 'This link no longer works: ask for a new one' };
  assert.equal(syncStatus({ ...asking, failure: /** @type {any} */ (denied) }).waiting, false);
});

test('a full board says that what is drawn stays on this device, while connected', () => {
  const full = { ...facts, progress: { state: 'uploading', bytesToUpload: 2048, bytesToDownload: 0 }, changesToUpload: 3, roomFull: true };
  const status = syncStatus(full);
  assert.equal(status.full, true);
  assert.equal(status.state, 'uploading');
  assert.match(status.detail, /^this board is full on the server: new changes are kept on this device/);
  assert.equal(sameStatus(status, syncStatus({ ...full, roomFull: false })), false);
  assert.equal(syncStatus({ ...full, paused: true }).full, false, 'paused says its own');
  assert.equal(syncStatus({ ...full, closed: true }).full, false);
});

test('a board whose early history this page refused says so, in plain words, while connected', () => {
  const open = { ...facts, progress: { state: 'offline', bytesToUpload: 120, bytesToDownload: 0 }, unfollowed: true };
  const status = syncStatus(open);
  assert.equal(status.unfollowed, true);
  assert.equal(status.state, 'offline');
  assert.match(status.detail, /does not match what this device holds, so the board is not synced until the next connection/);
  assert.equal(syncStatus({ ...open, paused: true }).unfollowed, false, 'a pause shows over it');
  assert.equal(syncStatus({ ...open, closed: true }).detail, 'closed');
  assert.equal(sameStatus(status, syncStatus({ ...open, unfollowed: false })), false);
});
