// The board's tabs told of a replaced link (js/app/links-channel.js), and what a tab takes from the store
// (js/sync/access.js `withStoredLinks`): on a fake BroadcastChannel, then node's own between two sessions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LinksChannel, linksChannelName } from '../../js/app/links-channel.js';
import { newBoardAccess, sameAccess, withLink, withStoredLinks } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { stroke, until } from '../sync/support/sessions.mjs';
import { makerTabs, ROOM } from './maker-tabs.mjs';

/** BroadcastChannels of one profile: a message reaches the other channels of its name, not its sender. */
class Hub {
  /** @type {Set<any>} */
  channels = new Set();
  /** Every message posted, with the channel's name. @type {{name: string, data: unknown}[]} */
  posted = [];

  get BroadcastChannel() {
    const hub = this;
    return class extends EventTarget {
      constructor(name) {
        super();
        this.name = name;
        hub.channels.add(this);
      }

      postMessage(data) {
        hub.posted.push({ name: this.name, data });
        for (const other of hub.channels) {
          if (other !== this && other.name === this.name) queueMicrotask(() => other.dispatchEvent(Object.assign(new Event('message'), { data })));
        }
      }

      close() {
        hub.channels.delete(this);
      }
    };
  }
}

/** A tab's side: what it read from the store and took. */
function tab(hub, room, load) {
  const adopted = [];
  const channel = new LinksChannel({
    room,
    load,
    adopt: async (stored) => {
      adopted.push(stored);
      return stored !== null;
    },
    BroadcastChannel: hub?.BroadcastChannel,
  });
  return { channel, adopted };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('one channel a board; a replacement is announced by room, and the other tabs read the store and take it', async () => {
  assert.equal(linksChannelName('Kq3Zt0aLw9PxYbN2mR7sVc'), 'inkwell-links:Kq3Zt0aLw9PxYbN2mR7sVc');
  const hub = new Hub();
  const store = new MemoryStore();
  const board = newBoardAccess(ROOM);
  await store.saveAccess(board);
  const a = tab(hub, ROOM, () => store.loadAccess(ROOM));
  const b = tab(hub, ROOM, () => store.loadAccess(ROOM));
  const other = tab(hub, 'room-2', () => store.loadAccess('room-2'));
  a.channel.announce();
  await settle();
  assert.deepEqual(hub.posted, [{ name: 'inkwell-links:room-1', data: { type: 'links', room: ROOM } }], 'no capability in the message');
  assert.deepEqual(b.adopted, [board], 'B took what the store holds');
  assert.deepEqual(a.adopted, [], 'the announcing tab is not told its own news');
  assert.deepEqual(other.adopted, [], 'another board’s tab hears nothing');
  for (const t of [a, b, other]) t.channel.close();
});

test('messages that are not a replacement of this room are ignored', async () => {
  const hub = new Hub();
  const b = tab(hub, ROOM, async () => newBoardAccess(ROOM));
  const sender = new (hub.BroadcastChannel)(linksChannelName(ROOM));
  for (const data of [null, 'links', { type: 'links' }, { type: 'links', room: 'room-2' }, { type: 'other', room: ROOM }]) sender.postMessage(data);
  await settle();
  assert.equal(b.adopted.length, 0);
  sender.postMessage({ type: 'links', room: ROOM });
  await settle();
  assert.equal(b.adopted.length, 1);
  b.channel.close();
  sender.postMessage({ type: 'links', room: ROOM });
  await settle();
  assert.equal(b.adopted.length, 1, 'closed: no longer told');
});

test('reads of the store run one after another, each taking what is stored when it runs; a failed read is no change', async () => {
  const hub = new Hub();
  const stored = [];
  let reads = 0;
  const gates = [];
  const b = tab(hub, ROOM, async () => {
    const n = ++reads;
    await new Promise((resolve) => gates.push(resolve));
    if (n === 2) throw new Error('the store is closed');
    return stored.at(-1) ?? null;
  });
  stored.push(newBoardAccess(ROOM));
  const first = b.channel.refresh();
  const second = b.channel.refresh();
  const third = b.channel.refresh();
  await settle();
  assert.equal(reads, 1, 'the second read waits for the first');
  stored.push(newBoardAccess(ROOM));
  gates.shift()();
  assert.equal(await first, true);
  assert.deepEqual(b.adopted, [stored[1]], 'what the store held when the read ran');
  await settle();
  gates.shift()();
  assert.equal(await second, false, 'a read that failed changed nothing');
  await settle();
  gates.shift()();
  assert.equal(await third, true, 'and the reads go on after it');
  assert.equal(b.adopted.length, 2);
  b.channel.close();
});

test('without BroadcastChannel the page still works: nothing is announced, the store can still be read', async () => {
  const store = new MemoryStore();
  const board = newBoardAccess(ROOM);
  await store.saveAccess(board);
  const alone = new LinksChannel({ room: ROOM, load: () => store.loadAccess(ROOM), adopt: async (stored) => stored !== null, BroadcastChannel: undefined });
  alone.announce();
  assert.equal(await alone.refresh(), true);
  alone.close();
});

test('what a tab takes from the store: each stored capability over its own, none forgotten, never another key’s, the key when it held none', () => {
  const board = newBoardAccess(ROOM);
  const rotated = { ...board, view: newBoardAccess(ROOM).view };
  assert.deepEqual(withStoredLinks(board, rotated), rotated);
  assert.equal(withStoredLinks(rotated, rotated), null, 'nothing new');
  const editor = withLink(null, { room: ROOM, capability: board.edit, key: board.key });
  assert.deepEqual(withStoredLinks(editor, rotated), rotated, 'a tab on the edit link takes the admin’s record');
  assert.deepEqual(withStoredLinks(rotated, editor), null, 'a record holding less forgets nothing');
  assert.equal(withStoredLinks(board, { ...rotated, key: newBoardAccess(ROOM).key }), null, 'another key: other links, not taken');
  assert.equal(withStoredLinks(board, { ...rotated, room: 'room-2' }), null);
  assert.equal(withStoredLinks(board, null), null);
  assert.equal(withStoredLinks(null, rotated), null, 'an open room stays one');
  const keyless = withLink(null, { room: ROOM, capability: board.edit, key: null });
  assert.deepEqual(withStoredLinks(keyless, editor), editor, 'a tab that opened the link without its key takes the stored key');
  assert.equal(withStoredLinks(editor, keyless), null, 'a tab holding the key keeps it');
  const plain = newBoardAccess(ROOM, { encrypted: false });
  assert.equal(withStoredLinks(plain, { ...plain, edit: board.edit }).edit, board.edit, 'plain boards too');
  assert.equal(sameAccess(board, { ...board }), true);
  assert.equal(sameAccess(board, rotated), false);
  assert.equal(sameAccess(null, null), true);
  assert.equal(sameAccess(board, null), false);
});

test('two sessions of one profile on node’s BroadcastChannel: a link replaced in one tab is shown in the other, which keeps syncing', async (t) => {
  const { tabs } = await makerTabs(t, [null, null]);
  const [a, b] = tabs;
  const record = await a.session.replaceLink('view');
  a.links.announce();
  await until(() => b.session.access.view === record.view, 'B to hold the new view link');
  assert.deepEqual(b.session.access, record);
  b.session.commit([stroke(3)]);
  await until(() => a.session.board.changeCount === 1, 'B’s stroke at A');
  assert.equal(b.session.status.denied, null);
});
