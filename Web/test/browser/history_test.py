"""The history panel end to end, against a real `inkwell serve`: two pages (two Chromium) in one room draw;
page A opens the history (H), walks the slider back with the keyboard to the board after two strokes, sees
that board on screen with who drew the change and when, and restores it. Both pages then show that board;
one Ctrl+Z on A brings the board back as it was before the restore, on both. And the help sheet (?) lists
every shortcut the toolbar's tooltips give.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/history_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/history)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), shown: window.inkwell?.shownHash(), history: window.inkwell?.history()}"
)

# What each stroke looks like, ids aside: a restore draws gone strokes again under new ids.
LOOKS = """
return window.inkwell.session.board.strokes().map((s) => JSON.stringify([s.colour, s.width, s.transform, s.points, s.pieces]));
"""


class Page(harness.Page):
    folder = ".build/artifacts/history"

    def looks(self):
        return self.js(LOOKS)

    def changes(self):
        return self.js("return window.inkwell.history().count")


class HistoryTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def draw(self, page, *lines):
        page.tool("pen")
        for points in lines:
            before = page.strokes()
            page.drag(points)
            harness.wait_for(lambda: page.strokes() == before + 1, message=f"{page.name}'s stroke")

    def test_restoring_an_earlier_version_is_seen_by_both_and_undone_by_one_undo(self):
        alice = self.open("/r/history-room", "A")
        bob = self.open("/r/history-room", "B")
        try:
            # A stroke drawn for longer than 250 ms is saved in parts while it is drawn, so the history counts
            # one change a stroke or more: the positions below are read from the board, not assumed.
            self.draw(alice, line(100, 100, 400, 100), line(100, 160, 400, 160))
            harness.wait_for(lambda: bob.strokes() == 2, timeout=20, message="B to see A's strokes")
            harness.wait_for(lambda: bob.hash() == alice.hash(), timeout=20, message="B to hold A's board")
            early = bob.looks()
            after_two = alice.changes()
            self.draw(bob, line(100, 220, 400, 260))
            harness.wait_for(lambda: alice.strokes() == 3 and alice.hash() == bob.hash(), timeout=20,
                             message="A to see B's stroke")
            # A erases part of its first stroke: the restore must draw it whole again.
            alice.tool("eraser")
            erased = alice.changes() + 1
            alice.drag(line(250, 80, 250, 120, 4))
            harness.wait_for(lambda: alice.changes() == erased, timeout=10, message="A's erase")
            harness.wait_for(lambda: bob.hash() == alice.hash(), timeout=20, message="B to see A's erase")
            before = alice.hash()

            alice.keys("h")
            panel = alice.find("history-panel")
            harness.wait_for(panel.is_displayed, message="the history panel to open")
            label = alice.find("history-label")
            self.assertIn(f"Now: change {erased} of {erased}", label.text)
            self.assertEqual(alice.js("return window.inkwell.shownHash()"), before, "the present, at first")
            # Back with the keyboard (the slider has the focus) to the board after A's two strokes.
            self.assertTrue(alice.js("return document.activeElement === arguments[0]", alice.find("history-slider")))
            alice.keys(*[Keys.ARROW_LEFT] * (erased - after_two))
            harness.wait_for(lambda: f"Change {after_two} of {erased}" in label.text, message=f"the slider at change {after_two}")
            self.assertIn("drew", label.text)
            self.assertNotEqual(alice.js("return window.inkwell.shownHash()"), before, "the past board is on screen")
            self.assertEqual(alice.hash(), before, "looking back changes nothing")
            # Drawing is off while the history is open.
            alice.drag(line(500, 400, 600, 400))
            self.assertEqual(alice.changes(), erased)

            alice.find("history-restore").click()
            harness.wait_for(lambda: not panel.is_displayed(), message="the panel to close")
            harness.wait_for(lambda: alice.changes() == erased + 1, timeout=10, message="the restore's change")
            # Stroke for stroke, bottom to top, as it looked (a stroke erased since comes back under a new id).
            self.assertEqual(alice.looks(), early, "A's board looks as it did after two strokes")
            harness.wait_for(lambda: bob.hash() == alice.hash(), timeout=20, message="B to see the restore")
            self.assertEqual(bob.looks(), early)

            alice.board.click()
            ActionChains(alice.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
            harness.wait_for(lambda: alice.hash() == before, timeout=10, message="Ctrl+Z to undo the restore")
            harness.wait_for(lambda: bob.hash() == before, timeout=20, message="B to see the restore undone")
            self.assertNoConsoleErrors(alice, bob)
        except Exception:
            self.diagnostics("restore")
            raise

    def test_the_help_sheet_lists_every_shortcut_and_escape_closes_it(self):
        page = self.open("/r/help-room", "the page")
        sheet = page.find("help-sheet")
        self.assertFalse(sheet.is_displayed())
        page.board.click()
        page.keys("?")
        harness.wait_for(sheet.is_displayed, message="the help sheet to open")
        text = sheet.text
        for line_text in ("Keyboard shortcuts", "Lasso", "History", "Duplicate", "Undo your last change"):
            self.assertIn(line_text, text)
        labels = page.js("return [...document.querySelectorAll('#toolbar [data-action]')].map((b) => b.title)")
        for title in labels:
            # Every button's shortcut, as its tooltip says it, is on the sheet.
            if title.endswith(")") and "(" in title:
                self.assertIn(title[title.rindex("(") + 1:-1], text, title)
        page.keys(Keys.ESCAPE)
        harness.wait_for(lambda: not sheet.is_displayed(), message="Escape to close the sheet")
        page.find("tool-help").click()
        harness.wait_for(sheet.is_displayed, message="the toolbar's button to open the sheet")
        page.find("help-close").click()
        harness.wait_for(lambda: not sheet.is_displayed(), message="Done to close the sheet")
        self.assertNoConsoleErrors(page)


if __name__ == "__main__":
    unittest.main()
