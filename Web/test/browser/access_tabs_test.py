"""Two tabs of one browser profile on one encrypted board, against a real `inkwell serve`: a link replaced
in one tab is the link the other tab's share dialog and address show, and the other tab keeps drawing and
syncing (Web/js/app/links-channel.js: a BroadcastChannel named after the room, and IndexedDB read again).
Two tabs replacing links at the same moment both end on the links the server opens (Web/js/sync/session.js
`replaceLink`: the room's Web Lock around each rotation, and one IndexedDB transaction for its record).

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
from access_test import CAPABILITY, STATE, Page, zigzag  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


class Tab(Page):
    """One tab of a shared Chromium: every use of its driver switches to it first. The console log is the
    whole Chromium's: the first tab that asks keeps it."""

    def __init__(self, driver, handle, name):
        self._driver = driver
        self.handle = handle
        self.name = name
        self.console = []

    @property
    def driver(self):
        if self._driver.current_window_handle != self.handle:
            self._driver.switch_to.window(self.handle)
        return self._driver

    def field(self, testid):
        return self.find(testid).get_attribute("value")

    def url(self):
        return self.driver.current_url


class AccessTabsTest(harness.BrowserTest):
    page_class = Page
    server_options = None

    def setUp(self):
        super().setUp()
        self.server = harness.Server(open_rooms=False)
        self.driver = harness.chrome(harness.WIDTH, harness.HEIGHT)
        self.tabs = []

    def tearDown(self):
        super().tearDown()
        with contextlib.suppress(Exception):
            self.driver.quit()
        self.server.stop()

    def diagnostics(self, prefix):
        """On failure: a screenshot, the console log and the state of every tab, and the server's log."""
        return harness.failure_artifacts(self.tabs, [self.server], self.artifacts(), prefix, STATE)

    def tab(self, name, url):
        if self.tabs:
            self.driver.switch_to.new_window("tab")
        tab = Tab(self.driver, self.driver.current_window_handle, name)
        self.tabs.append(tab)
        tab.open(url)
        return tab

    def test_a_link_replaced_in_one_tab_is_shown_in_the_other_which_keeps_drawing(self):
        with self.diagnostics("tabs"):
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
            # One log for the whole Chromium: both tabs' errors.
            self.assertEqual(a.severe(), [], "console errors")

    def replace_at_once(self, a, b, a_kind, b_kind):
        """A replaces its `a_kind` link and B its `b_kind` one at the same moment: both confirmations are
        shown first, then A tells B on a BroadcastChannel and clicks its own, B clicking as the message
        lands. Returns once both dialogs say the link is ready."""
        for tab, kind in ((a, a_kind), (b, b_kind)):
            tab.find("share").click()
            tab.find(f"replace-{kind}-link").click()
            harness.wait_for(lambda: tab.find("share-confirm").is_displayed(), message=f"{tab.name}'s confirmation")
        b.js("const go = new BroadcastChannel('test-go'); "
             "go.onmessage = () => document.querySelector('[data-testid=share-confirm-yes]').click();")
        a.js("new BroadcastChannel('test-go').postMessage('go'); "
             "document.querySelector('[data-testid=share-confirm-yes]').click();")
        for tab, kind in ((a, a_kind), (b, b_kind)):
            harness.wait_for(lambda: f"New {kind} link ready" in tab.find("share-status").text, timeout=15,
                             message=f"the {kind} link replaced in {tab.name}")

    def links(self, tab):
        """The edit and view links the tab's dialog shows, and what its session holds."""
        return (tab.field("share-edit-link"), tab.field("share-view-link"),
                tab.js("const a = window.inkwell.session.access; return [a.edit, a.view]"))

    def wait_same_links(self, a, b):
        """Waits until both tabs show and hold the same links, and returns them (edit, view)."""
        harness.wait_for(lambda: self.links(a) == self.links(b), timeout=10, message="both tabs on the same links")
        edit, view, held = self.links(a)
        self.assertEqual(held, [cap(edit), cap(view)], "the dialog shows what the session holds")
        harness.wait_for(lambda: a.url() == edit and b.url() == edit, timeout=10, message="both addresses on the edit link")
        return edit, view

    def stranger(self, link, name):
        """A page in a Chromium of its own (another device), on `link`."""
        return self.open(harness.link_path(link), name)

    def assertOpens(self, link, rights, name):
        page = self.stranger(link, name)
        page.wait_synced()
        self.assertEqual(page.js("return window.inkwell.session.rights"), rights, f"{name} opens the board")
        page.quit()

    def assertRefused(self, link, name):
        page = self.stranger(link, name)
        harness.wait_for(lambda: "no longer works" in page.driver.find_element(By.ID, "notice").text, timeout=10,
                         message=f"{name} told the link no longer works")
        page.quit()

    def test_links_replaced_in_two_tabs_at_the_same_moment_end_the_same_in_both_and_open_the_board(self):
        with self.diagnostics("tabs-at-once"):
            a = self.tab("A", self.server.url + "/")
            a.wait_synced()
            b = self.tab("B", a.url())
            b.wait_synced()
            a.find("share").click()
            old_edit, old_view = a.field("share-edit-link"), a.field("share-view-link")
            a.keys(Keys.ESCAPE)

            # A replaces the edit link while B replaces the view link: both replacements are kept.
            self.replace_at_once(a, b, "edit", "view")
            edit, view = self.wait_same_links(a, b)
            self.assertNotEqual(edit, old_edit, "A's new edit link is kept")
            self.assertNotEqual(view, old_view, "B's new view link is kept")
            a.shot("tabs-at-once-both")
            self.assertOpens(edit, "edit", "C")
            self.assertOpens(view, "view", "D")
            self.assertRefused(old_edit, "E")
            for tab in (a, b):
                tab.keys(Keys.ESCAPE)

            # Both replace the edit link: one of the two is the link, the same in both tabs, and it works.
            self.replace_at_once(a, b, "edit", "edit")
            final_edit, final_view = self.wait_same_links(a, b)
            self.assertNotEqual(final_edit, edit)
            self.assertEqual(final_view, view)
            self.assertOpens(final_edit, "edit", "F")
            self.assertRefused(edit, "G")

            # And the tabs keep syncing on their connections.
            for tab in (a, b):
                tab.keys(Keys.ESCAPE)
            b.drag(zigzag(200, 300, 300))
            b.wait_synced()
            harness.wait_for(lambda: a.strokes() == 1 and a.hash() == b.hash(), timeout=10, message="B's stroke in A")
            # One log for the whole Chromium: both tabs' errors.
            self.assertEqual(a.severe(), [], "console errors")


def cap(link):
    """The capability a link carries."""
    return re.search(r"[?&]cap=([^&#]+)", link).group(1)


if __name__ == "__main__":
    unittest.main()
