"""Text boxes end to end, against a real `inkwell serve`, with real pointer and key events:

  a. Two pages (two Chromium) in one room. A picks the text tool, clicks and types "Hello": B sees it. A moves
     the box with the select tool: B sees the move. Then both click into the box at its end and type at once,
     keystrokes interleaved and nothing waited for: A " there", B " world". Both end with the same text, each
     word whole, after "Hello"; both SVG exports (the download) are the same, hold the lines in `<tspan>`s,
     and are the text Swift's `inkwell export` writes. One Ctrl+Z on A takes " there" away on both pages and
     leaves " world"; B reloaded shows the same.
  b. One page: T, a text size and a colour, two lines; a double-click with the select tool types where it
     was clicked; an input method's composition is one change when it ends; the partial eraser passes over a
     box and the stroke eraser takes it whole; lasso, Ctrl+D and PNG export take boxes like strokes.

A note on (a): a burst of typing into a box is one undo step, ended when its editor closes (Escape) or the
typing pauses, so "Hello" and " there" are two steps and Ctrl+Z takes " there" alone.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/text_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/text)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), editing: window.inkwell?.editing(), selection: window.inkwell?.selection(),"
    " boxes: window.inkwell?.session.board.strokes().filter((s) => s.text !== undefined)"
    ".map((s) => ({id: s.id, text: s.text, transform: s.transform}))}"
)

# The text boxes on the board, bottom to top.
BOXES = """
return window.inkwell.session.board.strokes().filter((s) => s.text !== undefined).map((s) => ({
  id: s.id, text: s.text, colour: s.colour, size: s.width, at: s.points[0], transform: [...s.transform],
}));
"""

# Where a box's lines are on screen: the corners of their measured box (the page's own layout), clockwise
# from the top left.
CORNERS = """
const [id, done] = arguments;
import('/js/app/text-layout.js').then((layout) => {
  const box = window.inkwell.session.board.stroke(id);
  const corners = layout.boxCorners(box.transform, layout.layoutRect(box));
  done(corners.map(([x, y]) => window.inkwell.viewport.toScreen(x, y)));
});
"""

RED = 0xE03131FF


class Page(harness.ExactPointer, harness.Page):
    """The whiteboard, driven with the mouse and the keyboard; its view is the board's origin at 100 %."""

    folder = ".build/artifacts/text"

    def boxes(self):
        return self.js(BOXES)

    def text(self, box):
        return self.js("return window.inkwell.text(arguments[0])", box)

    def editing(self):
        return self.js("return window.inkwell.editing()")

    def changes(self):
        return self.js("return window.inkwell.session.board.changeCount")

    def corners(self, box):
        return self.driver.execute_async_script(CORNERS, box)

    def end_of_line(self, box):
        """A point just inside the right end of a one-line box, half way down."""
        (_, _), (x1, y1), (x2, y2), (_, _) = self.corners(box)
        return (x1 + x2) / 2 - 2, (y1 + y2) / 2

    def middle(self, box):
        (x0, y0), _, (x2, y2), _ = self.corners(box)
        return (x0 + x2) / 2, (y0 + y2) / 2

    def svg(self):
        return self.download("tool-export-svg", ".svg").decode()


class TextTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def swift_svg(self, page):
        """The room's SVG as Swift's `inkwell export` writes it (the server runs with --open-rooms)."""
        room = page.js("return window.inkwell.room")
        with tempfile.TemporaryDirectory() as directory:
            out = Path(directory) / "board.svg"
            subprocess.run([str(harness.binary()), "export", room, "--server", self.server.url, "--svg", str(out), "--timeout", "30"],
                           check=True, capture_output=True, timeout=60)
            return out.read_text()

    # a. Two pages typing into one box

    def test_two_pages_type_into_one_box_at_once(self):
        with self.diagnostics("a"):
            alice = self.open("/r/text-together", "A")
            bob = self.open("/r/text-together", "B")
            for page in (alice, bob):
                page.same_view()
                page.wait_synced()

            # The text tool: its button says its key; a click opens the editor and commits nothing yet.
            alice.tool("text")
            self.assertEqual(alice.find("tool-text").get_attribute("title"), "Text (T)")
            self.assertTrue(alice.find("text-sizes").is_displayed(), "the text sizes show with the text tool")
            alice.click_at(300, 300)
            self.assertEqual(alice.editing(), {"box": None, "value": "", "caret": 0})
            self.assertTrue(alice.js("return document.activeElement === arguments[0]", alice.find("text-editor")))
            self.assertEqual(alice.changes(), 0, "nothing on the board before the first character")

            # "Hello": a change a keystroke, the first one making the box; B sees it.
            alice.keys("Hello")
            harness.wait_for(lambda: [b["text"] for b in alice.boxes()] == ["Hello"], timeout=5, message="A's box")
            self.assertEqual(alice.changes(), 5, "one change per keystroke")
            [box] = alice.boxes()
            self.assertEqual(box["size"], 24, "the medium size")
            harness.wait_for(lambda: bob.text(box["id"]) == "Hello", timeout=10, message="B to see Hello")
            alice.keys(Keys.ESCAPE)
            self.assertIsNone(alice.editing(), "Escape finishes")
            for page in (alice, bob):
                page.settled()
                x, y = page.middle(box["id"])
                self.assertGreater(max(page.ink(x + dx, y) for dx in range(-20, 21, 4)), 100, f"{page.name} paints the text")

            # A moves the box with the select tool; B sees the move.
            alice.tool("select")
            x, y = alice.middle(box["id"])
            alice.click_at(x, y)
            self.assertEqual(alice.js("return window.inkwell.selection()"), [box["id"]], "a click inside the box selects it")
            alice.drag(line(x, y, x + 40, y + 60, 6))
            harness.wait_for(lambda: alice.boxes()[0]["transform"] == [1, 0, 0, 1, 40, 60], timeout=5, message="A's move")
            harness.wait_for(lambda: bob.boxes()[0]["transform"] == [1, 0, 0, 1, 40, 60], timeout=10, message="B to see the move")
            alice.keys(Keys.ESCAPE)

            # Both click at the end of the box and type at once, neither waiting for the other.
            for page in (alice, bob):
                page.tool("text")
                page.click_at(*page.end_of_line(box["id"]))
                self.assertEqual(page.editing(), {"box": box["id"], "value": "Hello", "caret": 5}, f"{page.name}'s caret at the end")
            for a, b in zip(" there", " world"):
                alice.keys(a)
                bob.keys(b)

            def converged():
                texts = [page.text(box["id"]) for page in (alice, bob)]
                synced = all(page.sync_state() == "synced" for page in (alice, bob))
                return texts[0] if synced and texts[0] == texts[1] and len(texts[0]) == len("Hello there world") else None
            text = harness.wait_for(converged, timeout=20, message="A and B to agree")
            self.assertTrue(text.startswith("Hello"), text)
            self.assertIn(" there", text)
            self.assertIn(" world", text)
            for page in (alice, bob):
                self.assertEqual(page.editing()["value"], text, f"{page.name}'s editor follows the other's typing")
                page.keys(Keys.ESCAPE)
            alice.shot("a-typed-A")
            bob.shot("a-typed-B")

            # The same SVG on both, the text in tspans: Swift's.
            svg = alice.svg()
            self.assertEqual(bob.svg(), svg)
            self.assertIn(f'<text data-stroke="{box["id"]}" font-family="Inkwell Sans, Helvetica, Arial, sans-serif" font-size="24"', svg)
            self.assertIn(f">{text}</tspan>", svg)
            self.assertEqual(svg, self.swift_svg(alice), "the page's SVG is Swift's")

            # One Ctrl+Z on A: " there" goes on both, " world" stays.
            alice.chord("z")
            without = "Hello world"
            self.assertEqual(text.replace(" there", "", 1), without)
            harness.wait_for(lambda: alice.text(box["id"]) == without, timeout=5, message="A's undo")
            harness.wait_for(lambda: bob.text(box["id"]) == without, timeout=10, message="B to see A's undo")
            bob.wait_synced()
            bob.reload()
            bob.same_view()
            self.assertEqual(bob.text(box["id"]), without, "B reloaded")
            self.assertNoConsoleErrors(alice, bob)

    # b. One page: sizes, lines, double-click, composition, erasers, lasso, duplicate, exports, history

    def test_one_page_places_edits_erases_selects_and_exports_boxes(self):
        with self.diagnostics("b"):
            page = self.open("/r/text-one-page", "the page")
            page.same_view()
            page.wait_synced()

            # T picks the text tool; a size and a colour are for new boxes, and the tool stays.
            page.js("document.querySelector('[data-testid=\"board\"]').focus()")
            page.keys("t")
            self.assertEqual(page.find("tool-text").get_attribute("aria-pressed"), "true")
            page.find("text-size-36").click()
            self.assertEqual(page.find("text-size-36").get_attribute("aria-pressed"), "true")
            page.find("colour-e03131").click()
            self.assertEqual(page.find("tool-text").get_attribute("aria-pressed"), "true", "a colour keeps the text tool")
            page.click_at(200, 200)
            page.keys("one", Keys.ENTER, "two")
            harness.wait_for(lambda: [b["text"] for b in page.boxes()] == ["one\ntwo"], timeout=5, message="two lines")
            [box] = page.boxes()
            self.assertEqual((box["size"], box["colour"]), (36, RED))
            page.keys(Keys.ESCAPE)
            svg = page.js("return window.inkwell.exportSVG()")
            top = box["at"][1]
            self.assertIn(f'<tspan x="200" y="{top + 36:g}">one</tspan><tspan x="200" y="{top + 36 + 45:g}">two</tspan>', svg)

            # A double-click with the select tool types where it was clicked: after "on".
            page.keys("v")
            (x0, y0), _, _, _ = page.corners(box["id"])
            width = page.driver.execute_async_script(
                "const done = arguments[1]; import('/js/app/text-layout.js').then((l) => done(l.measureLine(arguments[0], 36)))", "on")
            page.double_click_at(x0 + width + 1, y0 + 20)
            self.assertEqual(page.editing(), {"box": box["id"], "value": "one\ntwo", "caret": 2})
            page.keys("X")
            harness.wait_for(lambda: page.text(box["id"]) == "onXe\ntwo", timeout=5, message="the X after on")

            # An input method's composition is one change, when it ends.
            changes = page.changes()
            page.driver.execute_cdp_cmd("Input.imeSetComposition", {"text": "に", "selectionStart": 1, "selectionEnd": 1})
            page.driver.execute_cdp_cmd("Input.imeSetComposition", {"text": "にほ", "selectionStart": 2, "selectionEnd": 2})
            self.assertEqual(page.changes(), changes, "nothing while composing")
            page.driver.execute_cdp_cmd("Input.insertText", {"text": "日本"})
            harness.wait_for(lambda: page.text(box["id"]) == "onX日本e\ntwo", timeout=5, message="the composition")
            self.assertEqual(page.changes(), changes + 1)
            page.keys(Keys.ESCAPE)

            # The partial eraser passes over the box; the stroke eraser takes it whole; undo brings it back.
            (x0, y0), (x1, _), (_, y2), _ = page.corners(box["id"])
            across = line(x0 - 30, (y0 + y2) / 2, x1 + 30, (y0 + y2) / 2, 8)
            changes = page.changes()
            page.tool("eraser")
            page.drag(across)
            self.assertEqual(page.changes(), changes, "the partial eraser leaves text alone")
            page.tool("stroke-eraser")
            page.drag(across)
            harness.wait_for(lambda: page.boxes() == [], timeout=5, message="the stroke eraser to take the box")
            page.chord("z")
            harness.wait_for(lambda: len(page.boxes()) == 1, timeout=5, message="undo to bring it back")

            # The lasso takes it; Ctrl+D copies it, text and all, selected.
            page.tool("lasso")
            page.drag([(x0 - 20, y0 - 20), (x1 + 20, y0 - 20), (x1 + 20, y2 + 20), (x0 - 20, y2 + 20), (x0 - 20, y0 - 10)])
            self.assertEqual(page.js("return window.inkwell.selection()"), [box["id"]])
            page.chord("d")
            harness.wait_for(lambda: len(page.boxes()) == 2, timeout=5, message="the copy")
            copy = page.boxes()[1]
            self.assertEqual(copy["text"], "onX日本e\ntwo")
            self.assertEqual(copy["transform"], [1, 0, 0, 1, 16, 16])
            self.assertEqual(page.js("return window.inkwell.selection()"), [copy["id"]])

            # The selection's PNG: red text on white, within the margin.
            png_width, png_height, rgba = harness.png_pixels(page.download("tool-export-png", ".png"))
            red = sum(1 for i in range(0, len(rgba), 4) if rgba[i] > 180 and rgba[i + 1] < 120 and rgba[i + 2] < 120)
            self.assertGreater(red, 200, "the text is painted in the PNG")
            page.keys(Keys.ESCAPE)

            # The history tells what the changes did.
            page.keys("h")
            label = page.find("history-label")
            harness.wait_for(lambda: "added text" in label.text, timeout=5, message="the duplicate's label")
            page.keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
            harness.wait_for(lambda: "typed" in label.text, timeout=5, message="a typing change's label")
            page.find("history-close").click()

            # Whatever a box holds, the page's SVG is Swift's: markup, tabs, controls, a turn, a translucent
            # colour, an empty box, an empty line.
            page.js(r"""
                const session = window.inkwell.session;
                const next = session.nextChange;
                const id = `${next.replica}-${next.seq}-0`;
                session.commit([
                  {op: 'addText', colour: 0x2f9e4480, size: 17.5, at: [400.25, 500.125]},
                  {op: 'insertText', box: id, after: null, text: 'a < b && c > d\tTab\u0001\n\n  spaced  \n😀 é'},
                  {op: 'set', stroke: id, attribute: 'transform', value: [0.8, 0.6, -0.6, 0.8, 10, -20]},
                  {op: 'addText', colour: 0x1e1e1eff, size: 30, at: [-50, -60]},
                ]);
            """)
            page.wait_synced()
            self.assertEqual(page.js("return window.inkwell.exportSVG()"), self.swift_svg(page), "the page's SVG is Swift's")
            page.shot("b-end")
            self.assertNoConsoleErrors(page)


if __name__ == "__main__":
    unittest.main()
