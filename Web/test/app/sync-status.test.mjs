// What the sync indicator says (js/app/sync-status.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, indicatorFor, statusDetails } from '../../js/app/sync-status.js';

test('each session state shows as one of the four indicator states', () => {
  assert.deepEqual(indicatorFor({ state: 'synced', bytesToUpload: 0, bytesToDownload: 0 }), { state: 'synced', text: 'Synced' });
  assert.deepEqual(indicatorFor({ state: 'uploading', bytesToUpload: 12_345, bytesToDownload: 0 }), { state: 'uploading', text: 'Uploading 12 KB' });
  assert.deepEqual(indicatorFor({ state: 'downloading', bytesToUpload: 0, bytesToDownload: 40 * 1024 }), { state: 'downloading', text: 'Downloading 40 KB' });
  assert.deepEqual(indicatorFor({ state: 'offline', bytesToUpload: 0 }), { state: 'offline', text: 'Offline' });
  assert.deepEqual(indicatorFor({ state: 'offline', bytesToUpload: 3000 }), { state: 'offline', text: 'Offline · 3 KB to upload' });
  assert.deepEqual(indicatorFor({ state: 'connecting' }), { state: 'offline', text: 'Connecting…' });
  assert.equal(indicatorFor(undefined).state, 'offline');
});

test('byte counts read naturally', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(511), '511 B');
  assert.equal(formatBytes(512), '1 KB');
  assert.equal(formatBytes(12 * 1024), '12 KB');
  assert.equal(formatBytes(3.4 * 1024 * 1024), '3.4 MB');
  assert.equal(formatBytes(25 * 1024 * 1024), '25 MB');
  assert.equal(formatBytes(-5), '0 B');
  assert.equal(formatBytes(NaN), '0 B');
});

test('the details list what is left each way and why', () => {
  const rows = statusDetails(
    { state: 'uploading', bytesToUpload: 2048, bytesToDownload: 0, detail: '3 changes to upload' },
    { room: 'Abc', device: '0123456789abcdef', peers: 2, online: true },
  );
  assert.deepEqual(rows, [
    ['Status', 'Uploading 2 KB'],
    ['To upload', '2 KB'],
    ['To download', '0 B'],
    ['Network', 'online'],
    ['Others here', '2'],
    ['Room', 'Abc'],
    ['This device', '01234567'],
    ['Detail', '3 changes to upload'],
  ]);
});

test('paused shows as its own state, with the changes waiting to upload', () => {
  assert.deepEqual(indicatorFor({ state: 'paused', bytesToUpload: 0, changesToUpload: 0, paused: true }), { state: 'paused', text: 'Paused' });
  assert.deepEqual(indicatorFor({ state: 'paused', bytesToUpload: 900, changesToUpload: 1, paused: true }), {
    state: 'paused',
    text: 'Paused · 1 change to upload',
  });
  assert.deepEqual(indicatorFor({ state: 'paused', bytesToUpload: 9000, changesToUpload: 3, paused: true }).text, 'Paused · 3 changes to upload');
});

test('changes held for review are counted after any state, and listed in the details', () => {
  assert.deepEqual(indicatorFor({ state: 'synced', held: 2 }), { state: 'synced', text: 'Synced · 2 to review' });
  assert.deepEqual(indicatorFor({ state: 'paused', changesToUpload: 1, held: 1 }), { state: 'paused', text: 'Paused · 1 change to upload · 1 to review' });
  const rows = statusDetails({ state: 'synced', bytesToUpload: 0, bytesToDownload: 0, held: 2 }, { room: 'Abc', peers: 0, online: true });
  assert.deepEqual(rows.slice(0, 4), [
    ['Status', 'Synced · 2 to review'],
    ['To upload', '0 B'],
    ['To download', '0 B'],
    ['To review', '2 changes received'],
  ]);
});

test('a refused link reads "No access"; the details say what the link allows and what was kept aside', () => {
  assert.deepEqual(indicatorFor({ state: 'offline', denied: 'notAllowed' }), { state: 'offline', text: 'No access' });
  const rows = new Map(
    statusDetails(
      { state: 'synced', rights: 'view', keptAside: '1 received pack kept aside, not shown: altered on the way' },
      { room: 'r', peers: 0, online: true },
    ),
  );
  assert.match(rows.get('This link'), /^view only/);
  assert.equal(rows.get('Kept aside'), '1 received pack kept aside, not shown: altered on the way');
  assert.equal(new Map(statusDetails({ state: 'synced' }, { room: 'r', peers: 0, online: true })).has('Kept aside'), false);
});

test('waiting for a board the server does not know yet reads calmly, not as "No access"', () => {
  assert.deepEqual(indicatorFor({ state: 'connecting', waiting: true, denied: null }), { state: 'offline', text: 'Waiting for board' });
  assert.deepEqual(indicatorFor({ state: 'connecting', waiting: true, bytesToUpload: 2048 }), { state: 'offline', text: 'Waiting for board · 2 KB to upload' });
  assert.deepEqual(indicatorFor({ state: 'connecting', waiting: false }), { state: 'offline', text: 'Connecting…' });
  const rows = new Map(statusDetails({ state: 'connecting', waiting: true, detail: 'waiting for this board to reach the server' }, { room: 'r', peers: 0, online: true }));
  assert.equal(rows.get('Status'), 'Waiting for board');
  assert.equal(rows.get('Detail'), 'waiting for this board to reach the server');
});

test('a full board shows as such, with what is kept here', () => {
  assert.deepEqual(indicatorFor({ state: 'uploading', bytesToUpload: 3000, full: true }), { state: 'offline', text: 'Board full · 3 KB kept here' });
  assert.deepEqual(indicatorFor({ state: 'uploading', bytesToUpload: 0, full: true }), { state: 'offline', text: 'Board full' });
});

test('a board whose early history was refused shows as not syncing, with what is kept here', () => {
  assert.deepEqual(indicatorFor({ state: 'offline', bytesToUpload: 3000, unfollowed: true }), { state: 'offline', text: 'Not syncing · 3 KB kept here' });
  assert.deepEqual(indicatorFor({ state: 'offline', unfollowed: true }), { state: 'offline', text: 'Not syncing' });
});
