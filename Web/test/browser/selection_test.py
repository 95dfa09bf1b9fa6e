"""Selecting and editing strokes end to end, against a real `inkwell serve`, with real pointer and key events:

  a. One page: box-select, drag-move (shown live on the overlay while the board hides the originals), undo,
     lasso, scale by a corner handle, rotate by the top handle with Shift, recolour from the palette, Delete,
     Ctrl+D, bring to front: each one change, undone by one Ctrl+Z back to the board's earlier hash.
  b. Two pages (two Chromium) in one room: B pauses sharing and cuts through two strokes with the eraser;
     meanwhile A lasso-selects them and moves them; B resumes. Both end with the same SVG and hash, and
     each stroke shows B's gap at A's new place.
  c. Copy in one room, paste into another (a second tab of the same Chromium, so the same clipboard): the
     strokes arrive as one change, selected, 16 px from where they were (they were in view).

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/selection_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/selection)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import json
import math
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# What a failing test records of each page's state.
PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), selection: window.inkwell?.selection(),"
    " strokes: window.inkwell?.session.board.strokes().map((s) => ({id: s.id, transform: s.transform, pieces: s.pieces}))}"
)

# The board's strokes, bottom to top, as the tests compare them.
STROKES = """
return window.inkwell.session.board.strokes().map((s) => ({
  id: s.id, colour: s.colour, width: s.width, transform: [...s.transform], points: s.points, pieces: s.pieces,
}));
"""

# Keeps what the next paste event carries: its types and the start of its plain text.
WATCH_PASTE = """
window.__paste = null;
document.addEventListener('paste', (event) => {
  const data = event.clipboardData;
  window.__paste = { types: [...data.types], text: data.getData('text/plain').slice(0, 5) };
}, { capture: true, once: true });
"""

RED = 0xE03131FF


def bounds(strokes):
    """The union of the strokes' bounds as the board draws them (export-svg.js `strokeBounds`)."""
    box = None
    for s in strokes:
        a, b, c, d, tx, ty = s["transform"]
        xs = [a * x + c * y + tx for x, y in s["points"]]
        ys = [b * x + d * y + ty for x, y in s["points"]]
        grow = s["width"] / 2 * max(1, math.hypot(a, b), math.hypot(c, d))
        one = [min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow]
        box = one if box is None else [min(box[0], one[0]), min(box[1], one[1]), max(box[2], one[2]), max(box[3], one[3])]
    return box


def loop(x0, y0, x1, y1, steps=6):
    """A lasso around the rectangle, clockwise, closed."""
    return line(x0, y0, x1, y0, steps) + line(x1, y0, x1, y1, steps)[1:] + line(x1, y1, x0, y1, steps)[1:] + line(x0, y1, x0, y0 + 4, steps)[1:]


class Page(harness.ExactPointer, harness.Page):
    """The whiteboard, driven with the mouse and the keyboard; its view is the board's origin at 100 %."""

    folder = ".build/artifacts/selection"

    def undo(self):
        self.chord("z")

    def board_strokes(self):
        return self.js(STROKES)

    def selection(self):
        return self.js("return window.inkwell.selection()")

    def changes(self):
        return self.js("return window.inkwell.session.board.changeCount")

    def pressed(self, testid):
        return self.find(testid).get_attribute("aria-pressed") == "true"



class SelectionTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def draw(self, page, *lines):
        """Draws each line with the pen; returns the new strokes' ids in order."""
        page.tool("pen")
        before = page.strokes()
        for index, points in enumerate(lines, 1):
            page.drag(points)
            harness.wait_for(lambda: page.strokes() == before + index, message=f"{page.name}'s stroke {index}")
        return [s["id"] for s in page.board_strokes()[before:]]

    def one_change(self, page, edit, check):
        """Runs `edit`, which must make one change; `check()` looks at the board then; Ctrl+Z brings the board
        back to its hash before."""
        before, changes = page.hash(), page.changes()
        edit()
        harness.wait_for(lambda: page.changes() > changes, timeout=5, message="the edit's change")
        check()
        self.assertEqual(page.changes(), changes + 1, "one change")
        self.assertNotEqual(page.hash(), before)
        page.undo()
        harness.wait_for(lambda: page.hash() == before, timeout=5, message="Ctrl+Z to bring the board back")

    # a. One page

    def test_select_move_scale_rotate_recolour_delete_duplicate(self):
        with self.diagnostics("a"):
            page = self.open("/r/selection-one-page", "A")
            page.same_view()
            top, bottom, far = self.draw(page, line(300, 250, 500, 250), line(300, 350, 500, 350), line(800, 550, 900, 600))
            original = page.board_strokes()
            hash0, svg0, changes0 = page.hash(), page.js("return window.inkwell.exportSVG()"), page.changes()

            # V and a box dragged on empty board: the two strokes wholly inside, not the far one.
            page.keys("v")
            self.assertTrue(page.pressed("tool-select"))
            self.assertFalse(page.find("selection-actions").is_displayed(), "no selection actions without a selection")
            page.drag(line(250, 200, 550, 400, 8))
            self.assertEqual(page.selection(), sorted([top, bottom]))
            self.assertTrue(page.find("selection-actions").is_displayed())
            for testid, label in (("selection-delete", "Delete selection (Delete)"), ("selection-duplicate", "Duplicate (Ctrl+D)"),
                                  ("selection-front", "Bring to front (Ctrl+])"), ("selection-back", "Send to back (Ctrl+[)"),
                                  ("tool-select", "Select (V)"), ("tool-lasso", "Lasso select (L)")):
                self.assertEqual(page.find(testid).get_attribute("title"), label)

            # Dragging a selected stroke: while the button is down, the board no longer draws them where they
            # were and the overlay draws them where they go; pointer-up commits one change.
            page.settled()
            self.assertGreater(page.ink(400, 250), 100)
            page.drag(line(400, 250, 460, 290, 6), hold=True)
            page.settled()
            self.assertEqual(page.ink(400, 250), 0, "the original is hidden during the drag")
            self.assertEqual(page.ink(460, 290), 0, "the board has not moved it yet")
            self.assertGreater(page.ink(460, 290, "overlay"), 100, "the overlay shows it moved")
            self.assertEqual(page.changes(), changes0, "nothing committed while dragging")
            page.release()
            harness.wait_for(lambda: page.changes() == changes0 + 1, timeout=5, message="the move committed")
            moved = {s["id"]: s for s in page.board_strokes()}
            self.assertEqual(moved[top]["transform"], [1, 0, 0, 1, 60, 40])
            self.assertEqual(moved[bottom]["transform"], [1, 0, 0, 1, 60, 40])
            self.assertEqual(moved[far]["transform"], [1, 0, 0, 1, 0, 0])
            self.assertEqual(moved[top]["points"], original[0]["points"], "a move changes the transform, not the points")
            self.assertEqual(page.js("return window.inkwell.exportSVG()").count('transform="matrix(1 0 0 1 60 40)"'), 2)
            page.settled()
            self.assertGreater(page.ink(460, 290), 100, "the board draws it at its new place")
            self.assertEqual(page.ink(400, 250), 0)
            page.undo()
            harness.wait_for(lambda: page.hash() == hash0, timeout=5, message="Ctrl+Z to undo the move")
            self.assertEqual(page.js("return window.inkwell.exportSVG()"), svg0)
            self.assertEqual(page.selection(), sorted([top, bottom]), "undo keeps the selection")

            # Escape lets go; L and a loop around both picks them again.
            page.keys(Keys.ESCAPE)
            self.assertEqual(page.selection(), [])
            page.keys("l")
            self.assertTrue(page.pressed("tool-lasso"))
            page.drag(loop(270, 220, 530, 380))
            self.assertEqual(page.selection(), sorted([top, bottom]))

            # The bottom-right handle, dragged right by the box's width: twice as wide about the left edge.
            left, upper, right, lower = bounds(original[:2])

            def scaled():
                for s in page.board_strokes()[:2]:
                    self.assertEqual(s["transform"], [2, 0, 0, 1, -left, 0], "scaled ×2 about the left edge")
            width = right - left
            self.assertEqual(width, int(width), "points on one pixel grid: a box of whole pixels")
            press = (math.floor(right), math.floor(lower))
            self.one_change(page, lambda: page.drag(line(*press, press[0] + int(width), press[1], 8)), scaled)

            # The rotate handle, dragged with Shift a little past a quarter turn: snapped to 90° about the centre.
            cx, cy = (left + right) / 2, (upper + lower) / 2

            def turned():
                for s in page.board_strokes()[:2]:
                    a, b, c, d, tx, ty = s["transform"]
                    self.assertAlmostEqual(a, 0, places=12)
                    self.assertAlmostEqual(b, 1, places=12)
                    self.assertAlmostEqual(tx, cx + cy, places=9)
                    self.assertAlmostEqual(ty, cy - cx, places=9)
            self.one_change(page, lambda: page.drag([(cx, upper - 26), (cx + 40, upper - 20), (cx + 120, cy + 8)], shift=True), turned)

            # A palette colour recolours the selection, and the tool stays.
            def red():
                self.assertEqual([s["colour"] for s in page.board_strokes()], [RED, RED, original[2]["colour"]])
                self.assertTrue(page.pressed("tool-lasso"), "recolouring a selection does not take up the pen")
            self.one_change(page, lambda: page.find("colour-e03131").click(), red)

            # Delete.
            def deleted():
                self.assertEqual([s["id"] for s in page.board_strokes()], [far])
                self.assertEqual(page.selection(), [])
            self.one_change(page, lambda: page.keys(Keys.DELETE), deleted)

            # Ctrl+D: copies 16 px on, selected.
            page.drag(loop(270, 220, 530, 380))
            self.assertEqual(page.selection(), sorted([top, bottom]))

            def duplicated():
                copies = page.board_strokes()[3:]
                self.assertEqual(page.selection(), sorted(s["id"] for s in copies), "the copies are the selection")
                self.assertEqual([s["transform"] for s in copies], [[1, 0, 0, 1, 16, 16]] * 2)
                self.assertEqual([s["points"] for s in copies], [original[0]["points"], original[1]["points"]])
            self.one_change(page, lambda: page.chord("d"), duplicated)
            self.assertEqual(page.selection(), [], "undone copies leave the selection")

            # A click picks the top stroke alone; the toolbar brings it to the front.
            page.keys("v")
            page.click_at(400, 250)
            self.assertEqual(page.selection(), [top])
            self.one_change(page, lambda: page.find("selection-front").click(),
                            lambda: self.assertEqual([s["id"] for s in page.board_strokes()], [bottom, far, top]))
            self.assertEqual(page.hash(), hash0, "the board as drawn")
            page.shot("a-end")
            self.assertNoConsoleErrors(page)

    def test_exporting_with_a_selection_exports_only_the_selection(self):
        page = self.open("/r/selection-export", "the page")
        page.same_view()
        horizontal, vertical = self.draw(page, line(200, 200, 520, 200), line(300, 320, 300, 460))
        page.tool("select")
        page.click_at(400, 200)
        harness.wait_for(lambda: page.selection() == [horizontal], message="the horizontal stroke selected")
        width = page.board_strokes()[0]["width"]
        text = page.download("tool-export-svg", ".svg").decode()
        self.assertEqual(text.count("<path"), 1, "the selected stroke alone")
        self.assertNotIn(vertical, text)
        png_width, png_height, _ = harness.png_pixels(page.download("tool-export-png", ".png"))
        ratio = page.js("return window.devicePixelRatio")
        # The stroke's box (320 px long, a width high) and a 16 px margin around it; not the vertical stroke.
        self.assertAlmostEqual(png_width, (320 + width + 32) * ratio, delta=3)
        self.assertAlmostEqual(png_height, (width + 32) * ratio, delta=3)
        self.assertNoConsoleErrors(page)

    # b. Two pages, a move and a concurrent partial erase

    def test_a_move_and_a_concurrent_erase_both_hold(self):
        with self.diagnostics("b"):
            alice = self.open("/r/selection-concurrent", "A")
            bob = self.open("/r/selection-concurrent", "B")
            for page in (alice, bob):
                page.same_view()
                page.wait_synced()
            ids = self.draw(alice, line(300, 300, 600, 300), line(300, 360, 600, 360))
            harness.wait_for(lambda: bob.strokes() == 2 and bob.hash() == alice.hash(), timeout=10, message="A's strokes on B")

            # B pauses and cuts through both strokes with the eraser: kept on B alone.
            bob.find("sharing-toggle").click()
            bob.wait_state("paused", timeout=5)
            bob.tool("eraser")
            bob.drag(line(450, 250, 450, 410, 8))
            harness.wait_for(lambda: all(len(s["pieces"]) == 2 for s in bob.board_strokes()), timeout=5, message="B's cuts")
            erased = {s["id"]: s["pieces"] for s in bob.board_strokes()}

            # Meanwhile A, who has not seen the cut, lassoes both strokes and drags them by (80, 100).
            self.assertEqual([len(s["pieces"]) for s in alice.board_strokes()], [1, 1], "A has not seen B's cut")
            alice.tool("lasso")
            alice.drag(loop(270, 270, 630, 390))
            self.assertEqual(alice.selection(), sorted(ids))
            alice.drag(line(400, 300, 480, 400, 8))
            harness.wait_for(lambda: all(s["transform"] == [1, 0, 0, 1, 80, 100] for s in alice.board_strokes()), timeout=5,
                             message="A's move")
            alice.wait_synced()

            # B resumes: both boards hold the move and the cut.
            bob.find("sharing-toggle").click()
            harness.wait_for(lambda: alice.hash() == bob.hash() and bob.sync_state() == "synced" and alice.sync_state() == "synced",
                             timeout=20, message="A and B to converge")
            svg = alice.js("return window.inkwell.exportSVG()")
            self.assertEqual(bob.js("return window.inkwell.exportSVG()"), svg)
            self.assertEqual(svg.count('transform="matrix(1 0 0 1 80 100)"'), 2)
            for page in (alice, bob):
                strokes = page.board_strokes()
                self.assertEqual([s["id"] for s in strokes], ids, page.name)
                for s in strokes:
                    self.assertEqual(s["transform"], [1, 0, 0, 1, 80, 100], f"{page.name}: A's move")
                    self.assertEqual(s["pieces"], erased[s["id"]], f"{page.name}: B's cut")
                    (_, gap_start), (gap_end, end) = s["pieces"]
                    # The cut is around x = 450 of a stroke drawn from x = 300 to 600: its middle.
                    self.assertLess(gap_start, gap_end)
                    self.assertLess(abs((gap_start + gap_end) / 2 / end - 0.5), 0.05, f"{page.name}: the gap in the middle")
                page.settled()
                for y in (400, 460):
                    self.assertEqual(page.ink(530, y), 0, f"{page.name}: the gap at the stroke's new place (530, {y})")
                    self.assertGreater(page.ink(420, y), 100, f"{page.name}: ink left of the gap at the new place")
                    self.assertGreater(page.ink(640, y), 100, f"{page.name}: ink right of the gap at the new place")
                    self.assertEqual(page.ink(350, y - 100), 0, f"{page.name}: nothing left at the old place")
            self.assertEqual(alice.selection(), sorted(ids), "A's selection follows the strokes")
            alice.shot("b-A")
            bob.shot("b-B")
            self.assertNoConsoleErrors(alice, bob)

    # c. Copy in one room, paste into another

    def test_copy_in_one_room_and_paste_into_another(self):
        with self.diagnostics("c"):
            page = self.open("/r/selection-copy-from", "A")
            page.same_view()
            self.draw(page, line(300, 250, 500, 250), line(300, 320, 450, 380))
            page.find("colour-2f9e44").click()  # the pen, green
            self.draw(page, [(600, 300), (600, 300)])  # a dot
            source = page.board_strokes()
            page.chord("a")
            self.assertTrue(page.pressed("tool-select"), "Ctrl+A picks the select tool")
            self.assertEqual(page.selection(), sorted(s["id"] for s in source))
            page.chord("c")

            # The same browser, another tab, another room: the same clipboard.
            page.driver.switch_to.new_window("tab")
            page.open(f"{self.server.url}/r/selection-copy-to")
            page.same_view()
            page.wait_synced()
            self.assertEqual(page.strokes(), 0)
            page.js(WATCH_PASTE)
            page.js("document.querySelector('[data-testid=\"board\"]').focus()")
            page.chord("v")
            harness.wait_for(lambda: page.strokes() == 3, timeout=5, message="the pasted strokes")
            carried = page.js("return window.__paste")
            self.assertIn("application/x-inkwell-strokes+json", carried["types"], "the custom type survives between tabs")
            self.assertIn("image/svg+xml", carried["types"])
            self.assertEqual(carried["text"], "<svg ")
            pasted = page.board_strokes()
            self.assertEqual(page.changes(), 1, "one change")
            self.assertEqual(page.selection(), sorted(s["id"] for s in pasted), "the pasted strokes are selected")
            self.assertTrue(page.pressed("tool-select"))
            for copy, original in zip(pasted, source):
                self.assertEqual((copy["colour"], copy["width"], copy["points"], copy["pieces"]),
                                 (original["colour"], original["width"], original["points"], original["pieces"]))
                self.assertEqual(copy["transform"], [1, 0, 0, 1, 16, 16], "in view where they were: 16 px on")
            page.wait_synced()
            page.reload()
            self.assertEqual(page.strokes(), 3, "the paste is kept")
            self.assertNoConsoleErrors(page)


if __name__ == "__main__":
    unittest.main()
