// Two tabs of the board's maker replacing links at the same moment (session.js `replaceLink`, through
// links-channel.js as the page does it), on one profile's store whose reads and writes the tabs' delays
// interleave: the store ends on the links the server opens, and both tabs on the store's record.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../../js/wire/bytes.js';
import { capabilityHash } from '../../js/wire/capability.js';
import { until } from '../sync/support/sessions.mjs';
import { makerTabs, ROOM } from './maker-tabs.mjs';

/** Whether each of the record's edit and view capabilities is the one the server opens now. */
async function opens(server, record) {
  const known = server.rooms.get(ROOM);
  return {
    edit: toHex(await capabilityHash(record.edit)) === known.edit,
    view: toHex(await capabilityHash(record.view)) === known.view,
  };
}

/** Waits until both tabs hold what the store holds, and returns it. */
async function settled(store, tabs) {
  let stored = null;
  await until(() => {
    void store.loadAccess(ROOM).then((record) => (stored = record));
    return stored !== null && tabs.every((tab) => JSON.stringify(tab.session.access) === JSON.stringify(stored));
  }, 'both tabs to hold the store’s record');
  return /** @type {any} */ (stored);
}

for (const delays of [[20, 20], [0, 30], [30, 0]]) {
  test(`the two links replaced at once in two tabs (store delays ${delays}): both kept, both working, shown in both tabs`, async (t) => {
    const { server, store, board, tabs } = await makerTabs(t, delays);
    const [edit, view] = await Promise.all([
      tabs[0].links.replace(() => tabs[0].session.replaceLink('edit')),
      tabs[1].links.replace(() => tabs[1].session.replaceLink('view')),
    ]);
    const stored = await settled(store, tabs);
    assert.deepEqual(await opens(server, stored), { edit: true, view: true }, 'the server opens what the store holds');
    assert.equal(stored.edit, edit.edit, 'the edit link replaced in A is kept');
    assert.equal(stored.view, view.view, 'the view link replaced in B is kept');
    assert.notEqual(stored.edit, board.edit);
    assert.notEqual(stored.view, board.view);
    assert.equal(stored.admin, board.admin);
  });
}

for (const delays of [[40, 0], [0, 40], [0, 0]]) {
  test(`one link replaced at once in two tabs (store delays ${delays}): the store keeps the one the server kept, and both tabs show it`, async (t) => {
    const { server, store, board, tabs } = await makerTabs(t, delays);
    const made = await Promise.all(tabs.map((tab) => tab.links.replace(() => tab.session.replaceLink('edit'))));
    const stored = await settled(store, tabs);
    assert.deepEqual(await opens(server, stored), { edit: true, view: true });
    assert.ok(made.some((record) => record.edit === stored.edit), 'one of the two replacements');
    assert.notEqual(made[0].edit, made[1].edit);
    assert.equal(stored.view, board.view);
  });
}

test('a rotation that fails gives the room’s turn back: the other tab’s, waiting for it, goes on', async (t) => {
  const { server, store, tabs } = await makerTabs(t, [30, 0]);
  tabs[0].network.goOffline();
  await until(() => tabs[0].session.status.state === 'offline', 'A offline');
  const [failed, replaced] = await Promise.allSettled([
    tabs[0].links.replace(() => tabs[0].session.replaceLink('view')),
    tabs[1].links.replace(() => tabs[1].session.replaceLink('view')),
  ]);
  assert.equal(failed.status === 'rejected' && failed.reason.code, 'notConnected');
  assert.equal(replaced.status, 'fulfilled');
  const stored = await store.loadAccess(ROOM);
  assert.equal(stored.view, /** @type {any} */ (replaced).value.view);
  assert.deepEqual(await opens(server, stored), { edit: true, view: true });
});
