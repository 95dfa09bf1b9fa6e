"""A board drawn only in pages gets a room snapshot, end to end against a real `inkwell serve` that compacts
every tenth of a second: headless Chromium pages in one open room.

  A draws eight strokes on `?snapshot-threshold=8&snapshot-delay=0` (eight changes make a snapshot due, sent
  at once; each stroke is one change of the page's session, as the pen makes a short stroke), then a ninth
  it undoes. Its page sends one snapshot and keeps it in its store; the server, whose
  one author checked the snapshot by sending it, drops the packs it stands for; reloaded, A sends none
  again. B, a new page with a profile of its own, opens the room from the snapshot: the same drawing, ink
  where A drew, and none where the undone stroke was.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/snapshot_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/snapshot)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

ROOM = "PageSnapshotBoard"
COMPACTED = "inkwell_packs_compacted_total"

# The newest room snapshot the page's store heard of: {position, changes, held}, or null.
HEARD = """
const [room, done] = arguments;
const opening = indexedDB.open('inkwell');
opening.onerror = () => done(null);
opening.onsuccess = () => {
  const db = opening.result;
  const reading = db.transaction('rooms').objectStore('rooms').get(room);
  reading.onsuccess = () => { done(reading.result?.heard ?? null); db.close(); };
  reading.onerror = () => { done(null); db.close(); };
};
"""

# What a failing test records of each page's state.
PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), strokes: window.inkwell?.strokeCount(),"
    " status: window.inkwell?.session.status, diagnostics: window.inkwell?.session.diagnostics}"
)


class Page(harness.Page):
    """The whiteboard, with what its session and its store say of snapshots; its ink is read once its tiles
    are painted."""

    folder = ".build/artifacts/snapshot"

    def diagnostics(self):
        return self.js("return window.inkwell.session.diagnostics")

    def heard(self):
        return self.driver.execute_async_script(HEARD, ROOM)

    def changes(self):
        return self.js("return window.inkwell.session.board.changeCount")

    def stroke(self, points):
        """One stroke through `points` (board pixels, whole), as one change of this page's session: the
        pen would save a stroke drawn for longer than 250 ms in several, and this test counts changes."""
        points = [[round(x), round(y)] for x, y in points]
        self.js("window.inkwell.session.commit([{op: 'addStroke', colour: 0x1e1e1eff, width: 4, "
                "points: arguments[0], pressures: null}])", points)

    def ink(self, x, y, layer="base"):
        self.settled()
        return super().ink(x, y, layer)


class SnapshotTest(harness.BrowserTest):
    page_class = Page
    server_options = {"compaction_interval": 0.1}
    state = PAGE_STATE
    clear_failures = True

    def setUp(self):
        super().setUp()
        print(flush=True)

    def test_a_board_drawn_only_in_pages_opens_from_its_snapshot(self):
        with self.diagnostics("snapshot"):
            alice = self.open(f"/r/{ROOM}?snapshot-threshold=8&snapshot-delay=0", "A")
            alice.wait_synced()
            rows = [120 + 60 * i for i in range(8)]
            for count, y in enumerate(rows, start=1):
                alice.stroke(line(200, y, 900, y + 20))
                harness.wait_for(lambda: alice.strokes() == count, message=f"A's stroke {count}")
            harness.wait_for(lambda: alice.diagnostics()["snapshotsSent"] == 1, timeout=20, message="A's snapshot")
            # After it: a stroke, undone; both go as packs after the snapshot.
            alice.stroke(line(1000, 150, 1000, 650))
            harness.wait_for(lambda: alice.strokes() == 9, message="A's ninth stroke")
            alice.tool("undo")
            harness.wait_for(lambda: alice.strokes() == 8, message="the ninth undone")
            alice.wait_synced()
            heard = alice.heard()
            self.assertIsNotNone(heard, "A's store keeps the snapshot it sent")
            self.assertGreaterEqual(heard["changes"], 8)
            self.assertEqual(heard["held"], heard["changes"], "nothing of eight strokes stopped mattering")
            alice.shot("1-A-drew")
            # Its one author checked it by sending it, and no device stands before it: the server drops the
            # packs it stands for.
            harness.wait_for(lambda: harness.metric(self.server, COMPACTED) >= heard["position"], timeout=20,
                             message="the packs the snapshot stands for dropped")

            # A reload sends none again.
            alice.reload()
            alice.wait_synced()
            time.sleep(0.5)
            self.assertEqual(alice.diagnostics()["snapshotsSent"], 0, "the reload remembers the snapshot")
            self.assertEqual(alice.heard(), heard)

            # B has never been here: the server no longer keeps the packs, so B opens from the snapshot.
            bob = self.open(f"/r/{ROOM}", "B")
            bob.wait_synced()
            self.assertEqual(bob.diagnostics()["snapshotsChecked"], 1, "B took the snapshot")
            self.assertEqual(bob.diagnostics()["snapshotsRefused"], 0)
            self.assertEqual((bob.strokes(), bob.changes(), bob.hash()), (alice.strokes(), alice.changes(), alice.hash()))
            for y in rows:
                self.assertGreater(bob.ink(550, y + 10), 100, f"A's stroke at {y} on B's board")
            self.assertEqual(bob.ink(1000, 400), 0, "the undone stroke is not")
            bob.shot("2-B-opened-from-the-snapshot")
            self.assertNoConsoleErrors(alice, bob)


if __name__ == "__main__":
    unittest.main()
