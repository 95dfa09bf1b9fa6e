"""A link opened before its board reached the server, against a real `inkwell serve` without open rooms:
the board is made offline in one Chromium (its maker's), its edit link opened in another, which is told
calmly that it waits for the board and asks the server again on its one connection (noSuchRoom is not a
refusal); once the maker goes online, the waiting page shows the board and syncs, without a reload.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/access_waiting_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/access)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from access_test import CAPABILITY, STATE, Page, zigzag  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402

# Installed before the page's scripts (with access_test's socket count): counts the frames the page sends.
COUNT_SENT = """
window.__sent = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent += 1;
  return send.call(this, data);
};
"""

# Every file the page loaded is in the service worker's cache, so it opens with no network.
PAGE_KEPT = """
const done = arguments[arguments.length - 1];
const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name))
    .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/sync')).map((u) => u.pathname);
caches.open('inkwell-shell-v1').then((c) => c.keys()).then((keys) => {
    const kept = new Set(keys.map((k) => new URL(k.url).pathname));
    done(kept.has('/index.html') && loaded.every((path) => kept.has(path)));
});
"""

WAITING = "Waiting for this board to reach the server"


class AccessWaitingTest(harness.BrowserTest):
    page_class = Page
    server_options = None
    state = STATE

    def setUp(self):
        super().setUp()
        self.server = harness.Server(open_rooms=False)

    def tearDown(self):
        super().tearDown()
        self.server.stop()

    def test_a_link_to_a_board_made_offline_waits_and_opens_once_its_maker_goes_online(self):
        with self.diagnostics("waiting"):
            # The maker's Chromium has the page kept by its service worker, then loses the network and
            # makes a board: the board, its links and its key exist only on this device.
            maker = self.open("/", "maker")
            harness.wait_for(lambda: maker.js("return navigator.serviceWorker.controller !== null"), timeout=20,
                             message="the worker in charge")
            harness.wait_for(lambda: maker.driver.execute_async_script(PAGE_KEPT), timeout=20, message="the page's files kept")
            harness.set_offline(maker.driver, True)
            maker.driver.get(self.server.url + "/")
            maker.opened("a new board offline")
            self.assertFalse(maker.js("return navigator.onLine"))
            room = maker.js("return window.inkwell.room")
            link = maker.driver.current_url
            self.assertRegex(link, rf"/r/{room}\?cap=e{CAPABILITY}#key={CAPABILITY}$")
            maker.drag(zigzag(200, 200, 300))
            harness.wait_for(lambda: maker.strokes() == 1, message="the maker's stroke, offline")
            self.assertEqual(maker.sync_state(), "offline")

            # Someone else opens the edit link: the server has no such board yet.
            visitor = self.open(harness.link_path(link), "visitor", scripts=(COUNT_SENT,))
            status = visitor.find("sync-status")
            notice = visitor.driver.find_element(By.ID, "notice")
            harness.wait_for(lambda: status.text == "Waiting for board", timeout=10, message="the waiting status")
            self.assertEqual(status.get_attribute("data-state"), "offline")
            self.assertTrue(notice.is_displayed())
            self.assertIn(WAITING, notice.text)
            self.assertEqual(notice.get_attribute("role"), "status", "calm: a status, not an alert")
            self.assertNotIn("no longer works", notice.text)
            self.assertFalse(visitor.js("return window.inkwell.readOnly()"), "an edit link: drawing stays on")
            self.assertIsNone(visitor.js("return window.inkwell.session.status.denied"))
            visitor.js("window.__sameDocument = true")
            visitor.shot("waiting-visitor")

            # It asks again on its one connection: more frames sent, no new socket.
            sent = visitor.js("return window.__sent")
            harness.wait_for(lambda: visitor.js("return window.__sent") > sent, timeout=10,
                             message="the subscription sent again")
            self.assertEqual(visitor.js("return window.__sockets"), 1, "one connection")
            self.assertEqual(status.text, "Waiting for board")

            # The maker comes online: its page registers the board and pushes its stroke; the visitor's
            # page, asking again, opens it.
            harness.set_offline(maker.driver, False)
            maker.wait_synced(timeout=30)
            visitor.wait_synced(timeout=70)
            harness.wait_for(lambda: visitor.strokes() == 1 and visitor.hash() == maker.hash(), timeout=10,
                             message="the maker's stroke on the visitor's page")
            self.assertTrue(visitor.js("return window.__sameDocument === true"), "no reload")
            self.assertEqual(visitor.js("return window.__sockets"), 1, "on the connection it kept")
            harness.wait_for(lambda: not notice.is_displayed(), timeout=5, message="the waiting note gone")
            self.assertEqual(visitor.js("return window.inkwell.session.rights"), "edit")
            harness.wait_for(lambda: visitor.js("return window.inkwell.settled()"), message="the visitor's board painted")
            self.assertGreater(visitor.ink(350, 218), 100, "the stroke painted")

            # And it draws: the stroke reaches the maker.
            visitor.drag(zigzag(200, 420, 300))
            visitor.wait_synced()
            harness.wait_for(lambda: maker.strokes() == 2 and maker.hash() == visitor.hash(), timeout=10,
                             message="the visitor's stroke at the maker's")
            visitor.shot("waiting-opened")
            self.assertNoConsoleErrors(maker, visitor)


if __name__ == "__main__":
    unittest.main()
