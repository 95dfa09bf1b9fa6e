// Tabs of a board's maker on one profile's store, on the fake server with guarded rooms: each a session
// and the links channel the page gives it (js/app/links-channel.js), closed when the test ends.

import { LinksChannel } from '../../js/app/links-channel.js';
import { newBoardAccess } from '../../js/sync/access.js';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { FakeServer } from '../sync/support/fake-server.mjs';
import { open, synced, TestNetwork } from '../sync/support/sessions.mjs';
import { tabStore } from '../sync/support/tab-store.mjs';

export const ROOM = 'room-1';

/**
 * One tab for each of `delays`, synced: a tab with a delay (ms) sees the store's access calls start that
 * much later (tab-store.mjs), one with null sees the store itself.
 * @param {import('node:test').TestContext} t @param {(number | null)[]} delays
 */
export async function makerTabs(t, delays) {
  const server = new FakeServer();
  server.openRooms = false;
  const store = new MemoryStore();
  const board = newBoardAccess(ROOM);
  await store.saveAccess(board);
  const tabs = [];
  for (const ms of delays) {
    const network = new TestNetwork();
    const storage = ms === null ? store : tabStore(store, ms);
    const session = await open({ WebSocket: server.WebSocket, storage, access: board, network });
    const links = new LinksChannel({ room: ROOM, load: () => storage.loadAccess(ROOM), adopt: (stored) => session.adoptAccess(stored) });
    t.after(async () => {
      links.close();
      await session.close();
    });
    tabs.push({ session, links, network });
  }
  await Promise.all(tabs.map((tab) => synced(tab.session)));
  return { server, store, board, tabs };
}
