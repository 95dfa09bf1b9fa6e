"""Highlighters and fills end to end, against a real `inkwell serve`, with real pointer and key events:

  a. A pen stroke, then the highlighter (M) over it: the highlighter's stroke is translucent and wide, and
     the exported SVG lists it first (beneath the ink drawn before it); the canvas shows it see-through.
  b. A closed pen loop, selected, filled from the selection toolbar: the SVG has the closed fill path before
     the ink, the canvas paints inside; Ctrl+Z takes the fill away in one step.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/ink_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/ink)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PAGE_STATE = (
    "return {hash: window.inkwell?.hash(), selection: window.inkwell?.selection(),"
    " strokes: window.inkwell?.session.board.strokes().map((s) => ({id: s.id, brush: s.brush, fill: s.fill, colour: s.colour}))}"
)

STROKES = "return window.inkwell.session.board.strokes().map((s) => ({id: s.id, brush: s.brush ?? null, fill: s.fill ?? null, colour: s.colour, width: s.width}))"


def svg_elements(svg):
    """The elements of the export that draw a stroke, as (data-stroke, attributes)."""
    found = []
    for match in re.finditer(r"<(path|circle)([^>]*)/>", svg):
        attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(2)))
        if "data-stroke" in attributes:
            found.append(attributes)
    return found


class Page(harness.Page):
    folder = ".build/artifacts/ink"

    def svg(self):
        return self.js("return window.inkwell.exportSVG()")

    def board_strokes(self):
        return self.js(STROKES)

    def pressed(self, testid):
        return self.find(testid).get_attribute("aria-pressed") == "true"


class InkTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def draw(self, page, points):
        """Draws with the current tool; returns the new stroke's id (wherever the stack puts it)."""
        before = {s["id"] for s in page.board_strokes()}
        page.drag(points)
        harness.wait_for(lambda: page.strokes() == len(before) + 1, message="the stroke")
        return next(s["id"] for s in page.board_strokes() if s["id"] not in before)

    def test_highlighter_beneath_and_fill(self):
        with self.diagnostics("ink"):
            page = self.open("/r/ink-highlighter-fill", "A")
            page.same_view()
            page.tool("pen")
            pen = self.draw(page, line(300, 300, 500, 300))

            # a. M picks the highlighter; its stroke, drawn after the pen's, goes beneath it.
            page.keys("m")
            self.assertTrue(page.pressed("tool-highlighter"))
            self.assertEqual(page.find("tool-highlighter").get_attribute("title"), "Highlighter (M)")
            marker = self.draw(page, line(300, 306, 500, 306))
            strokes = page.board_strokes()
            self.assertEqual([s["id"] for s in strokes], [marker, pen], "the highlighter is first in the drawing")
            self.assertEqual(strokes[0]["brush"], "highlighter")
            self.assertEqual(strokes[0]["colour"] & 0xFF, 0x66, "translucent")
            drawn = svg_elements(page.svg())
            self.assertEqual([e["data-stroke"] for e in drawn], [marker, pen], "the SVG paints it first")
            self.assertEqual(drawn[0]["stroke-opacity"], "0.4")
            self.assertEqual(drawn[0]["stroke-width"], "16")
            page.settled()
            alpha = page.ink(400, 311)
            self.assertTrue(60 < alpha < 160, f"the highlighter alone is see-through ({alpha})")
            self.assertGreater(page.ink(400, 300), 200, "the pen's ink shows over it")

            # b. A closed loop with the pen, selected with a box, filled from the selection toolbar.
            page.tool("pen")
            loop = line(600, 200, 700, 200, 6) + line(700, 200, 700, 300, 6)[1:] + line(700, 300, 600, 300, 6)[1:] + line(600, 300, 600, 204, 6)[1:]
            shape = self.draw(page, loop)
            page.keys("v")
            page.drag(line(570, 170, 730, 330, 8))
            harness.wait_for(lambda: page.js("return window.inkwell.selection()") == [shape], message="the loop selected")
            self.assertTrue(page.find("selection-fill").is_displayed())
            page.settled()
            self.assertEqual(page.ink(650, 250), 0, "nothing inside yet")
            hash_before = page.hash()
            page.find("selection-fill").click()
            harness.wait_for(lambda: page.board_strokes()[-1]["fill"] is not None, message="the fill")
            self.assertEqual(page.board_strokes()[-1]["fill"], 0x1E1E1E59, "the current colour at about 35 %")
            drawn = [e for e in svg_elements(page.svg()) if e["data-stroke"] == shape]
            self.assertEqual(len(drawn), 2, "a fill path, then the ink")
            self.assertTrue(drawn[0]["d"].startswith("M600 200C") and drawn[0]["d"].endswith("Z"))
            self.assertEqual((drawn[0]["fill"], drawn[0]["fill-opacity"]), ("#1e1e1e", "0.35"))
            self.assertIn("stroke", drawn[1])
            page.settled()
            self.assertGreater(page.ink(650, 250), 40, "the canvas paints inside")
            page.shot("filled")

            # Ctrl+Z takes the fill away, in one step.
            ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
            harness.wait_for(lambda: page.hash() == hash_before, timeout=5, message="undo of the fill")
            self.assertEqual(len([e for e in svg_elements(page.svg()) if e["data-stroke"] == shape]), 1)
            page.settled()
            self.assertEqual(page.ink(650, 250), 0, "the fill is gone")
            self.assertNoConsoleErrors(page)


if __name__ == "__main__":
    unittest.main()
