"""Pausing sharing and reviewing what arrived after time away, end to end against a real `inkwell serve`:
two headless Chromium pages in one room.

  a. A pauses sharing and draws: B sees nothing of it, nor A's presence; A's pause outlives a reload; A
     resumes (from the keyboard) and B gets the stroke. A's indicator shows `paused`, then `synced`.
  b. B goes offline (the review threshold lowered to 0 by `?review-after=0`), A draws 2 strokes, B comes
     back: B's banner says "N changes from <A's name> arrived" (N at least 2: a stroke drawn longer than
     250 ms is saved in parts) and B's board does not hold them, even
     after a reload; Show previews them (framed, the live board untouched), Hide goes back, Merge makes
     B's board A's.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/review_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/review)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.keys import Keys  # noqa: E402

# Keeps every data-state the sync indicator takes from now on (a MutationObserver sees each one).
RECORD_STATES = """
const indicator = document.querySelector('[data-testid="sync-status"]');
window.__states = [indicator.dataset.state];
new MutationObserver(() => window.__states.push(indicator.dataset.state))
  .observe(indicator, { attributes: true, attributeFilter: ['data-state'] });
"""


# What a failing test records of each page's state.
PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), strokes: window.inkwell?.strokeCount(),"
    " status: window.inkwell?.session.status, review: window.inkwell?.review(),"
    " online: navigator.onLine, states: window.__states}"
)


# The changes of the page's board: each of its user's strokes is one, or more when saved while drawn.
CHANGES = "return window.inkwell.session.board.changeCount"

class Page(harness.Page):
    """The whiteboard, with its review banner; its ink is read once its tiles are painted."""

    folder = ".build/artifacts/review"

    def review(self):
        return self.js("return window.inkwell.review()")

    def banner(self):
        """The banner's sentence while it is shown (on screen, not only in the DOM), else None."""
        return self.find("review-text").text if self.find("review-banner").is_displayed() else None

    def ink(self, x, y, layer="base"):
        self.settled()
        return super().ink(x, y, layer)

    def identity(self):
        return self.js("return JSON.parse(localStorage.getItem('inkwell.identity')).name")


class ReviewTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def setUp(self):
        super().setUp()
        print(flush=True)

    def test_a_paused_page_shares_nothing_until_it_resumes(self):
        with self.diagnostics("a"):
            alice = self.open("/", "A")
            # The board's edit link, as A's page shows it in its address.
            bob = self.open(harness.link_path(alice.driver.current_url), "B")
            alice.wait_state("synced")
            bob.wait_state("synced")
            harness.wait_for(lambda: bob.js("return window.inkwell.session.peers.size") == 1, message="B to see A")

            # A pauses: the indicator says so, the button offers to resume, and B no longer sees A.
            alice.js(RECORD_STATES)
            toggle = alice.find("sharing-toggle")
            self.assertEqual(toggle.tag_name, "button")
            self.assertEqual(toggle.get_attribute("aria-label"), "Pause sharing")
            toggle.click()
            alice.wait_state("paused", timeout=5)
            self.assertEqual(toggle.get_attribute("aria-label"), "Resume sharing")
            self.assertEqual(alice.find("sync-status").text, "Paused")
            harness.wait_for(lambda: bob.js("return window.inkwell.session.peers.size") == 0, timeout=5,
                             message="A gone from B's room")

            # A draws while paused: kept and counted on A, nothing reaches B (nor A's cursor).
            bob_hash = bob.hash()
            alice.drag(line(250, 300, 650, 300))
            harness.wait_for(lambda: alice.strokes() == 1, message="A's stroke")
            # A stroke drawn for longer than 250 ms is saved in parts while it is drawn, and counted as one.
            self.assertGreaterEqual(alice.js(CHANGES), 1)
            harness.wait_for(lambda: alice.find("sync-status").text == "Paused · 1 change to upload", timeout=5,
                             message="A's indicator to count the stroke waiting")
            alice.shot("a-1-paused-A")
            time.sleep(1.5)
            self.assertEqual((bob.strokes(), bob.hash()), (0, bob_hash), "nothing reaches B while A is paused")
            self.assertEqual(bob.js("return window.inkwell.session.peers.size"), 0, "no presence from A while paused")
            self.assertEqual(alice.sync_state(), "paused")

            # The pause outlives a reload; the stroke is kept on A's device.
            alice.reload()
            alice.js(RECORD_STATES)
            alice.wait_state("paused", timeout=5)
            self.assertEqual(alice.strokes(), 1, "A's paused stroke kept on A's device")
            self.assertEqual(alice.find("sharing-toggle").get_attribute("aria-label"), "Resume sharing")
            time.sleep(1.0)
            self.assertEqual(bob.strokes(), 0, "still nothing on B after A's reload")
            self.assertEqual(alice.sync_state(), "paused")

            # A resumes, from the keyboard: B gets the stroke, and both hold the same board.
            alice.js("document.querySelector('[data-testid=\"sharing-toggle\"]').focus()")
            self.assertEqual(alice.js("return document.activeElement.dataset.testid"), "sharing-toggle")
            alice.driver.switch_to.active_element.send_keys(Keys.ENTER)
            harness.wait_for(lambda: bob.strokes() == 1 and bob.hash() == alice.hash() and alice.sync_state() == "synced",
                             timeout=15, message="A's stroke on B after resuming")
            self.assertEqual(alice.find("sharing-toggle").get_attribute("aria-label"), "Pause sharing")
            states = alice.js("return window.__states")
            print(f"  A's indicator states after the reload: {states}")
            self.assertIn("paused", states)
            self.assertEqual(states[-1], "synced")
            self.assertLess(states.index("paused"), states.index("synced"), "paused, then synced")
            self.assertGreater(bob.ink(450, 300), 100, "B shows A's stroke")
            harness.wait_for(lambda: bob.js("return window.inkwell.session.peers.size") == 1, timeout=5,
                             message="A back in B's room")
            self.assertNoConsoleErrors(alice, bob)

    def test_what_arrived_after_time_offline_is_held_for_review(self):
        with self.diagnostics("b"):
            alice = self.open("/", "A")
            # The board's edit link, with the page parameter that holds every catch-up for review.
            link = harness.link_path(alice.driver.current_url)
            bob = self.open(link.replace("?", "?review-after=0&", 1), "B")
            alice.wait_state("synced")
            bob.wait_state("synced")
            name = alice.identity()
            harness.wait_for(lambda: bob.js("return [...window.inkwell.session.peers.values()].map((p) => p.name)") == [name],
                             message="B to know A's name")

            # A first stroke, live: B merges it at once.
            alice.drag(line(250, 200, 650, 200))
            harness.wait_for(lambda: bob.strokes() == 1 and bob.hash() == alice.hash(), timeout=5, message="a live stroke")
            self.assertIsNone(bob.banner(), "live changes are not held")

            # B goes offline; A draws 2 strokes; B comes back.
            bob.set_offline(True)
            bob.wait_state("offline", timeout=5)
            before = bob.hash()
            made = alice.js(CHANGES)
            alice.drag(line(250, 320, 650, 320))
            alice.drag(line(250, 440, 650, 440))
            harness.wait_for(lambda: alice.strokes() == 3, message="A's two strokes")
            alice.wait_state("synced")
            # Each stroke is one change, or more when it was saved in parts while drawn: two edits all the same.
            self.assertGreaterEqual(alice.js(CHANGES) - made, 2)
            held = 2
            bob.set_offline(False)
            bob.wait_state("synced")
            expected = f"{held} changes from {name} arrived"
            harness.wait_for(lambda: bob.banner() == expected, timeout=10, message=f"B's banner to say {expected!r}")
            print(f"  B's banner: {bob.banner()!r}; indicator: {bob.find('sync-status').text!r}")
            self.assertEqual(bob.hash(), before, "B's board does not hold them")
            self.assertNotEqual(bob.hash(), alice.hash())
            self.assertEqual(bob.strokes(), 1)
            self.assertEqual(bob.find("sync-status").get_attribute("data-review"), str(held))
            self.assertEqual(bob.find("sync-status").text, f"Synced · {held} to review")
            self.assertEqual(bob.ink(450, 320), 0, "not drawn")
            for testid in ("review-show", "review-merge"):
                self.assertEqual(bob.find(testid).tag_name, "button")
            bob.shot("b-1-held-B")

            # Held durably: a reload holds them still.
            bob.reload()
            bob.wait_state("synced")
            harness.wait_for(lambda: bob.banner() == expected, timeout=10, message="the banner after B's reload")
            self.assertEqual(bob.hash(), before, "still not on B's board after a reload")

            # Show: a preview of the board with them, framed; the live board is untouched.
            bob.find("review-show").click()
            harness.wait_for(lambda: bob.review()["previewing"], timeout=5, message="B's preview")
            self.assertEqual(bob.js("return window.inkwell.shownHash()"), alice.hash(), "the preview is A's board")
            self.assertEqual(bob.hash(), before, "previewing merges nothing")
            self.assertIn("previewing", bob.board.get_attribute("class"))
            self.assertEqual(bob.find("review-show").text, "Hide")
            self.assertGreater(bob.ink(450, 320), 100, "the preview shows A's strokes")
            self.assertGreater(bob.ink(450, 440), 100)
            bob.shot("b-2-preview-B")

            # Hide: back to the live board.
            bob.find("review-show").click()
            harness.wait_for(lambda: not bob.review()["previewing"], timeout=5, message="B back to live")
            self.assertEqual(bob.ink(450, 320), 0, "hidden again")
            self.assertEqual(bob.js("return window.inkwell.shownHash()"), before)
            self.assertNotIn("previewing", bob.board.get_attribute("class"))

            # Merge: B's board is A's, the banner goes.
            bob.find("review-merge").click()
            harness.wait_for(lambda: bob.hash() == alice.hash(), timeout=5, message="B's board merged")
            harness.wait_for(lambda: bob.banner() is None, timeout=5, message="the banner gone")
            self.assertIsNone(bob.find("sync-status").get_attribute("data-review"))
            self.assertEqual(bob.strokes(), 3)
            self.assertGreater(bob.ink(450, 320), 100)
            self.assertGreater(bob.ink(450, 440), 100)
            bob.wait_state("synced")
            bob.reload()
            bob.wait_state("synced")
            self.assertEqual(bob.hash(), alice.hash(), "merged for good")
            self.assertIsNone(bob.banner())
            self.assertNoConsoleErrors(alice, bob)


if __name__ == "__main__":
    unittest.main()
