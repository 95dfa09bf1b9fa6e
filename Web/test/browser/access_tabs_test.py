"""Two tabs of one browser profile on one encrypted board, against a real `inkwell serve`: a link replaced
in one tab is the link the other tab's share dialog and address show, and the other tab keeps drawing and
syncing (Web/js/app/links-channel.js: a BroadcastChannel named after the room, and IndexedDB read again).

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/access_tabs_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/access)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.

The tabs are two windows of one Chromium, so they share its profile: its IndexedDB, where the board's
links are kept, and its BroadcastChannels. Selenium acts on one tab at a time; each step switches first.
"""

import contextlib
import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from access_test import CAPABILITY, HEIGHT, STATE, WIDTH, artifacts, zigzag  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


class Tab:
    """One tab of a shared Chromium; every call switches to it first."""

    def __init__(self, driver, handle, name):
        self.driver = driver
        self.handle = handle
        self.name = name
        self.console = []

    def focus(self):
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)

    def open(self, url):
        self.focus()
        self.driver.get(url)
        harness.wait_for(lambda: self.js("return document.documentElement.dataset.ready === 'true'"),
                         timeout=20, message=f"{self.name}'s board to open")

    def js(self, script, *args):
        self.focus()
        return self.driver.execute_script(script, *args)

    def find(self, testid):
        self.focus()
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def field(self, testid):
        return self.find(testid).get_attribute("value")

    def url(self):
        self.focus()
        return self.driver.current_url

    def sync_state(self):
        return self.find("sync-status").get_attribute("data-state")

    def wait_synced(self, timeout=20):
        harness.wait_for(lambda: self.sync_state() == "synced", timeout=timeout, message=f"{self.name} synced")

    def strokes(self):
        return self.js("return window.inkwell.strokeCount()")

    def hash(self):
        return self.js("return window.inkwell.hash()")

    def drag(self, points):
        board = self.find("board")
        size = self.js("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", board)
        harness.mouse_drag(self.driver, board, size, points)

    def keys(self, *keys):
        self.focus()
        ActionChains(self.driver).send_keys(*keys).perform()

    def shot(self, name):
        self.focus()
        self.driver.save_screenshot(str(artifacts() / f"{name}.png"))

    def collect_console(self):
        # One log for the whole Chromium: kept on the first tab that asks.
        with contextlib.suppress(Exception):
            self.console.extend(self.driver.get_log("browser"))
        return self.console


class AccessTabsTest(unittest.TestCase):
    def setUp(self):
        self.server = harness.Server(open_rooms=False)
        self.driver = harness.chrome(WIDTH, HEIGHT)
        self.tabs = []

    def tearDown(self):
        with contextlib.suppress(Exception):
            self.driver.quit()
        self.server.stop()

    def tab(self, name, url):
        if self.tabs:
            self.driver.switch_to.new_window("tab")
        tab = Tab(self.driver, self.driver.current_window_handle, name)
        self.tabs.append(tab)
        tab.open(url)
        return tab

    def test_a_link_replaced_in_one_tab_is_shown_in_the_other_which_keeps_drawing(self):
        with harness.failure_artifacts(self.tabs, self.server, artifacts(), "tabs", STATE):
            a = self.tab("A", self.server.url + "/")
            a.wait_synced()
            room = a.js("return window.inkwell.room")
            edit_link = a.url()
            self.assertRegex(edit_link, rf"/r/{room}\?cap=e{CAPABILITY}#key={CAPABILITY}$")
            a.drag(zigzag(200, 200, 300))
            a.wait_synced()

            # B: the same board in a second tab of the same profile; it holds what A made, admin included.
            b = self.tab("B", edit_link)
            b.wait_synced()
            harness.wait_for(lambda: b.strokes() == 1, message="A's stroke in B")
            self.assertEqual(b.js("return window.inkwell.session.rights"), "admin")
            b.find("share").click()
            old_view = b.field("share-view-link")
            old_edit = b.field("share-edit-link")
            self.assertEqual(old_edit, edit_link)

            # A replaces the view link; B's dialog, left open, shows the new one.
            a.find("share").click()
            a.find("replace-view-link").click()
            harness.wait_for(lambda: a.find("share-confirm").is_displayed(), message="the confirmation")
            a.find("share-confirm-yes").click()
            harness.wait_for(lambda: "New view link ready" in a.find("share-status").text, timeout=10,
                             message="the view link replaced in A")
            new_view = a.field("share-view-link")
            self.assertNotEqual(new_view, old_view)
            self.assertRegex(new_view, rf"/r/{room}\?cap=v{CAPABILITY}#key={CAPABILITY}$")
            harness.wait_for(lambda: b.field("share-view-link") == new_view, timeout=10,
                             message="B's open share dialog to show the new view link")
            self.assertEqual(b.field("share-edit-link"), old_edit, "the edit link is kept")
            self.assertEqual(b.js("return window.inkwell.session.access.view"), b.js(
                "return new URL(arguments[0]).searchParams.get('cap')", new_view), "B holds the new capability")
            b.shot("tabs-b-new-view-link")
            b.keys(Keys.ESCAPE)

            # B keeps drawing and syncing on its connection.
            self.assertEqual(b.find("sync-status").text, "Synced")
            b.drag(zigzag(200, 420, 300))
            b.wait_synced()
            harness.wait_for(lambda: a.strokes() == 2 and a.hash() == b.hash(), timeout=10, message="B's stroke in A")

            # Now the edit link, replaced in A with its dialog closed: B's address and its dialog, opened
            # afresh, show the new one.
            a.keys(Keys.ESCAPE)
            a.find("share").click()
            a.find("replace-edit-link").click()
            harness.wait_for(lambda: a.find("share-confirm").is_displayed(), message="the confirmation")
            a.find("share-confirm-yes").click()
            harness.wait_for(lambda: "New edit link ready" in a.find("share-status").text, timeout=10,
                             message="the edit link replaced in A")
            new_edit = a.field("share-edit-link")
            self.assertNotEqual(new_edit, old_edit)
            harness.wait_for(lambda: b.url() == new_edit, timeout=10, message="B's address to show the new edit link")
            b.find("share").click()
            self.assertEqual(b.field("share-edit-link"), new_edit)
            self.assertEqual(b.field("share-view-link"), new_view)
            b.keys(Keys.ESCAPE)
            b.drag(zigzag(500, 300, 200))
            b.wait_synced()
            harness.wait_for(lambda: a.strokes() == 3 and a.hash() == b.hash(), timeout=10, message="B's second stroke in A")
            self.assertEqual(b.find("sync-status").text, "Synced")
            self.assertTrue(b.driver.find_element(By.ID, "notice").get_attribute("role") != "alert"
                            or not b.driver.find_element(By.ID, "notice").is_displayed(), "no refusal shown in B")
            severe = [entry for entry in a.collect_console() if entry.get("level") == "SEVERE"]
            self.assertEqual(severe, [], "console errors")


if __name__ == "__main__":
    unittest.main()
