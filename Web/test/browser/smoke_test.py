"""The whiteboard page in headless Chromium against a real `inkwell serve`: draw with real pointer drags,
erase, undo, see another page's strokes and cursor, export SVG like Swift does, fit a phone screen.

Run:  python3 Web/test/browser/smoke_test.py            (plain unittest; -v for names)
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots go (default .build/artifacts)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

TOOLS = [
    "pen", "eraser", "stroke-eraser", "shapes", "undo", "redo", "clear",
    "zoom-out", "zoom-reset", "zoom-in", "theme", "export-png", "export-svg",
]


class Page(harness.Page):
    """The whiteboard at a laptop's size unless asked for another; `csp` watches its Content-Security-Policy."""

    def __init__(self, server, url="/", name="the page", width=1440, height=900, csp=False):
        super().__init__(server, url, name, width, height, scripts=(harness.CSP_PROBE,) if csp else ())

    def release(self):
        """Ends a drag made with `hold`."""
        ActionChains(self.driver, duration=10).release().perform()

    def hover(self, x, y):
        ActionChains(self.driver, duration=10).move_to_element_with_offset(
            self.board, int(x - self.size[0] / 2), int(y - self.size[1] / 2)).perform()


class SmokeTest(harness.BrowserTest):
    page_class = Page

    def test_page_opens_a_new_room_with_its_hooks_and_no_errors(self):
        page = self.open()
        room = page.js("return window.inkwell.room")
        # A new board's address is its edit link: the room, an edit capability, and the key in the fragment.
        self.assertRegex(page.driver.current_url, r"/r/[A-Za-z0-9]{22}\?cap=e[A-Za-z0-9_-]{43}#key=[A-Za-z0-9_-]{43}$")
        self.assertIn(f"/r/{room}?", page.driver.current_url)
        for name in TOOLS:
            button = page.find(f"tool-{name}")
            self.assertTrue(button.get_attribute("aria-label"), name)
            self.assertTrue(button.get_attribute("title"), name)
        self.assertIn(page.sync_state(), {"synced", "uploading", "downloading", "offline"})
        page.wait_synced()
        self.assertEqual(page.find("sync-status").text, "Synced")
        page.find("sync-status").click()
        details = page.driver.find_element(By.ID, "sync-panel")
        self.assertTrue(details.is_displayed())
        self.assertIn(room, details.text)
        self.assertIn("Synced", details.text)
        page.shot("01-empty-sync-details")
        page.keys(Keys.ESCAPE)
        self.assertFalse(details.is_displayed())
        self.assertNoConsoleErrors(page)

    def test_the_page_runs_under_its_content_security_policy(self):
        for path in ("/", "/r/some-room", "/js/app/main.js", "/healthz"):
            with urllib.request.urlopen(self.server.url + path) as response:
                headers = response.headers
            policy = headers.get("Content-Security-Policy", "")
            for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
                              "base-uri 'none'", "frame-ancestors 'none'", "img-src 'self' data: blob:",
                              f"connect-src 'self' ws://127.0.0.1:{self.server.port}"):
                self.assertIn(directive, policy, path)
            self.assertNotIn("unsafe", policy, path)
            self.assertEqual(headers.get("X-Content-Type-Options"), "nosniff", path)
            self.assertEqual(headers.get("Referrer-Policy"), "no-referrer", path)
            self.assertEqual(headers.get("X-Frame-Options"), "DENY", path)
        for path in ("/test/browser/harness.py", "/bench/pan-zoom.html", "/Swift/WebClient.swift"):
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(self.server.url + path)
            self.assertEqual(refused.exception.code, 404, path)

        page = self.open(csp=True)
        page.wait_synced()
        page.drag(line(200, 200, 420, 260))
        page.tool("shapes")
        page.drag([(500, 300), (620, 300), (620, 400), (500, 400), (500, 300)])
        page.tool("theme")
        page.tool("export-svg")
        page.tool("export-png")
        page.reload()
        page.wait_synced()
        self.assertNoConsoleErrors(page)
        self.assertEqual(harness.csp_violations(page.driver), [])
        # The probe sees a violation when there is one: an inline style attribute is refused.
        page.js("document.body.insertAdjacentHTML('beforeend', '<div style=\"color: red\"></div>')")
        harness.wait_for(lambda: harness.csp_violations(page.driver), message="the inline style to be refused")

    def test_draw_erase_undo_redo_clear(self):
        page = self.open()
        page.wait_synced()
        page.drag(line(300, 300, 700, 300))
        harness.wait_for(lambda: page.strokes() == 1, message="the stroke")
        page.settled()
        self.assertGreater(page.ink(500, 300), 200, "the stroke is painted")
        self.assertEqual(page.ink(500, 360), 0)
        page.wait_synced()
        page.shot("02-stroke")

        page.tool("eraser")
        page.drag(line(500, 240, 500, 360, 6))
        harness.wait_for(lambda: page.js("return window.inkwell.session.board.strokes()[0].pieces.length") == 2,
                         message="the stroke cut in two")
        page.settled()
        self.assertEqual(page.ink(500, 300), 0, "the eraser cut the stroke")
        self.assertGreater(page.ink(350, 300), 200, "the rest stays")
        self.assertEqual(page.strokes(), 1)
        page.shot("03-erased")

        page.board.click()
        ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        harness.wait_for(lambda: page.js("return window.inkwell.session.board.strokes()[0].pieces.length") == 1,
                         message="the erase undone")
        page.settled()
        self.assertGreater(page.ink(500, 300), 200, "undo brings the ink back")

        page.tool("redo")
        harness.wait_for(lambda: page.js("return window.inkwell.session.board.strokes()[0].pieces.length") == 2,
                         message="the erase redone")
        page.settled()
        self.assertEqual(page.ink(500, 300), 0, "redo cuts it again")

        page.keys("p")
        page.drag(line(300, 450, 700, 450))
        harness.wait_for(lambda: page.strokes() == 2, message="a second stroke")
        page.tool("stroke-eraser")
        page.drag(line(600, 420, 600, 480, 4))
        harness.wait_for(lambda: page.strokes() == 1, message="the stroke eraser")
        page.settled()
        self.assertEqual(page.ink(400, 450), 0, "the whole stroke went")

        page.tool("clear")
        harness.wait_for(lambda: page.strokes() == 0, message="the clear")
        page.settled()
        self.assertEqual(page.ink(350, 300), 0)
        page.tool("undo")
        harness.wait_for(lambda: page.strokes() == 1, message="the clear undone")
        page.settled()
        self.assertGreater(page.ink(350, 300), 200)
        page.wait_synced()
        page.shot("04-after-undo-clear")
        self.assertNoConsoleErrors(page)

    def test_shapes_are_recognised_at_pen_up(self):
        page = self.open()
        page.tool("shapes")
        self.assertEqual(page.find("tool-shapes").get_attribute("aria-pressed"), "true")
        rough = line(300, 200, 600, 205) + line(600, 205, 598, 400)[1:] + line(598, 400, 302, 396)[1:] + line(302, 396, 300, 204)[1:]
        page.drag(rough)
        harness.wait_for(lambda: page.strokes() == 1, message="the shape")
        self.assertEqual(page.js("return window.inkwell.session.board.strokes()[0].points.length"), 5, "a rectangle's corners")
        page.settled()
        page.shot("05-rectangle")
        self.assertNoConsoleErrors(page)

    def test_wheel_pans_ctrl_wheel_zooms_and_space_drags(self):
        page = self.open()
        view = lambda: page.js("return window.inkwell.viewport.toJSON()")  # noqa: E731
        ActionChains(page.driver).scroll_from_origin(ScrollOrigin.from_element(page.board), 0, 200).perform()
        harness.wait_for(lambda: view()["originY"] == 200, message="the wheel to pan")
        before = view()
        page.tool("zoom-in")
        self.assertAlmostEqual(view()["scale"], before["scale"] * 1.25)
        page.keys("0")
        self.assertEqual(view()["scale"], 1)
        start = view()
        ActionChains(page.driver).key_down(Keys.SPACE).perform()
        page.drag(line(400, 400, 300, 350, 4))
        ActionChains(page.driver).key_up(Keys.SPACE).perform()
        moved = view()
        self.assertEqual((moved["originX"] - start["originX"], moved["originY"] - start["originY"]), (100, 50), "the board follows the hand")
        self.assertEqual(page.strokes(), 0, "a space-drag draws nothing")
        self.assertNoConsoleErrors(page)

    def test_two_pages_see_each_others_strokes_cursors_and_ink(self):
        alice = self.open(name="alice")
        # The board's edit link, as the page shows it in its address.
        bob = self.open(harness.link_path(alice.driver.current_url), "bob")
        alice.wait_synced()
        bob.wait_synced()
        alice.drag(line(200, 200, 500, 260))
        harness.wait_for(lambda: bob.strokes() == 1, timeout=15, message="alice's stroke at bob's")
        harness.wait_for(lambda: bob.hash() == alice.hash(), message="the same board")
        bob.settled()
        self.assertGreater(bob.ink(350, 230), 100, "bob sees alice's stroke")

        alice.hover(600, 300)
        alice.hover(620, 320)
        harness.wait_for(lambda: bob.js(
            "const c = document.querySelector('.peer-cursor'); return c !== null && !c.hidden"), message="alice's cursor")
        name = alice.js("return document.querySelector('input[name=display-name]').value")
        self.assertEqual(bob.js("return document.querySelector('.peer-cursor-name').textContent"), name)
        alice.find("people").click()
        field = alice.find("name-input")
        # Select and type over, as a person does (clearing it first would restore the old name on change).
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("Alice <b>Liddell</b>", Keys.ENTER)
        alice.hover(640, 330)
        harness.wait_for(lambda: bob.js("return document.querySelector('.peer-cursor-name').textContent") == "Alice <b>Liddell</b>",
                         message="the new name, shown as text")
        self.assertIn("Alice <b>Liddell</b>", bob.js("return document.getElementById('people').title + document.querySelector('#people .chips').innerText") + bob.js(
            "return [...document.querySelectorAll('#people-panel li')].map((li) => li.textContent).join()"))

        alice.drag(line(200, 500, 600, 500), hold=True)
        # While the pen is down, B sees the stroke: the ink not saved yet as presence (the overlay), what is
        # saved (every 250 ms) on the board.
        harness.wait_for(lambda: max(bob.ink(400, 500, "overlay"), bob.ink(400, 500)) > 100, timeout=10,
                         message="alice's ink while she draws")
        bob.shot("06-bob-sees-alice")
        alice.release()
        harness.wait_for(lambda: bob.strokes() == 2, message="alice's second stroke")
        self.assertNoConsoleErrors(alice, bob)

    def test_svg_export_is_the_text_swift_writes(self):
        # An open room: `inkwell export` holds no capability nor key (the server runs with --open-rooms).
        page = self.open("/r/svg-export-check")
        page.drag(line(100, 100, 400, 180))
        page.tool("eraser")
        page.drag(line(250, 80, 250, 220, 4))
        page.tool("pen")
        page.find("colour-e03131").click()
        page.drag([(150, 300)] + line(150, 300, 300, 420)[1:])
        harness.wait_for(lambda: page.strokes() == 2, message="two strokes")
        page.wait_synced()
        room = page.js("return window.inkwell.room")
        with tempfile.TemporaryDirectory() as directory:
            out = Path(directory) / "board.svg"
            subprocess.run([str(harness.binary()), "export", room, "--server", self.server.url, "--svg", str(out), "--timeout", "30"],
                           check=True, capture_output=True, timeout=60)
            swift = out.read_text()
        self.assertEqual(page.js("return window.inkwell.exportSVG()"), swift)

    def test_png_export_is_the_board_in_ink_on_white(self):
        """The PNG button's download: the board's strokes, dark on a white ground, within a 16 px margin of
        the picture's edges, at the page's pixel ratio, and as large as the SVG export's picture."""
        page = self.open()
        page.drag(line(200, 200, 520, 200))
        page.drag(line(300, 320, 300, 460))
        harness.wait_for(lambda: page.strokes() == 2, message="two strokes")
        width, height, rgba = harness.png_pixels(page.download("tool-export-png", ".png"))
        ratio = page.js("return window.devicePixelRatio")
        view_box = page.js("return window.inkwell.exportSVG().match(/viewBox=\"([^\"]+)\"/)[1]").split()
        self.assertAlmostEqual(width, float(view_box[2]) * ratio, delta=8, msg="as wide as the SVG picture, within a stroke width")
        self.assertAlmostEqual(height, float(view_box[3]) * ratio, delta=8, msg="as high as the SVG picture, within a stroke width")
        dark = [(i // 4 % width, i // 4 // width) for i in range(0, len(rgba), 4)
                if rgba[i] < 128 and rgba[i + 1] < 128 and rgba[i + 2] < 128]
        light = sum(1 for i in range(0, len(rgba), 4) if min(rgba[i:i + 3]) > 240)
        self.assertGreater(len(dark), 300 * ratio, "the strokes are drawn")
        self.assertGreater(light, width * height * 0.8, "on white")
        margin = 16 * ratio
        xs, ys = [x for x, _ in dark], [y for _, y in dark]
        for low, high, side in ((min(xs), width - 1 - max(xs), "left and right"), (min(ys), height - 1 - max(ys), "top and bottom")):
            self.assertGreater(low, margin - 4, f"a margin {side}")
            self.assertGreater(high, margin - 4, f"a margin {side}")
            self.assertLess(low, margin + 8, f"no more than the margin {side}")
            self.assertLess(high, margin + 8, f"no more than the margin {side}")
        self.assertNoConsoleErrors(page)

    def test_a_local_stroke_shows_in_the_next_frame(self):
        page = self.open()
        page.settled()
        # Pointer events sent in the page, then read back in the very next animation frame.
        shown = page.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const surface = document.querySelector('[data-testid="board"]');
            const box = surface.getBoundingClientRect();
            const send = (type, x, y) => surface.dispatchEvent(new PointerEvent(type, {
                bubbles: true, pointerId: 9, pointerType: 'pen', isPrimary: true, pressure: 0.6,
                button: type === 'pointermove' ? -1 : 0, buttons: type === 'pointerup' ? 0 : 1,
                clientX: box.left + x, clientY: box.top + y}));
            const alpha = (which, x, y) => {
                const canvas = surface.querySelector('canvas.' + which);
                const r = canvas.width / canvas.clientWidth;
                return canvas.getContext('2d').getImageData(Math.round(x * r), Math.round(y * r), 1, 1).data[3];
            };
            send('pointerdown', 200, 600);
            for (let x = 210; x <= 400; x += 10) send('pointermove', x, 600);
            requestAnimationFrame(() => {
                const drawing = alpha('overlay', 300, 600);
                send('pointerup', 400, 600);
                requestAnimationFrame(() => done([drawing, alpha('base', 300, 600), alpha('overlay', 300, 600)]));
            });""")
        self.assertGreater(shown[0], 100, "the stroke being drawn is on the overlay in the next frame")
        self.assertGreater(shown[1], 100, "at pen-up it is on the board in the next frame")
        self.assertEqual(shown[2], 0, "and gone from the overlay in that same frame")
        self.assertEqual(page.strokes(), 1)

    def test_a_reload_while_offline_keeps_the_board_and_the_new_strokes_sync_later(self):
        server = harness.Server()
        try:
            # An open room, so `inkwell export` reads it at the end.
            page = self.open("/r/offline-reload-check", server=server)
            page.drag(line(200, 200, 500, 200))
            page.wait_synced()
            room = page.js("return window.inkwell.room")
            harness.wait_for(lambda: page.js("return navigator.serviceWorker.controller !== null"), message="the worker in charge")
            # Every file the page loaded is kept (the worker fetches those loaded before it was in charge).
            harness.wait_for(lambda: page.driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name))
                    .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/sync')).map((u) => u.pathname);
                caches.open('inkwell-shell-v1').then((c) => c.keys()).then((keys) => {
                    const kept = new Set(keys.map((k) => new URL(k.url).pathname));
                    done(kept.has('/index.html') && loaded.every((path) => kept.has(path)));
                });"""), timeout=20, message="the page's files kept")
            port = server.port
            server.stop(keep_data=True)
            page.reload()
            self.assertEqual(page.strokes(), 1, "the stroke made before is there")
            self.assertEqual(page.sync_state(), "offline")
            page.drag(line(200, 300, 500, 300))
            harness.wait_for(lambda: page.strokes() == 2, message="drawing offline")
            harness.wait_for(lambda: "to upload" in page.find("sync-status").text,
                             message="the indicator to count what is waiting")
            page.shot("09-offline")
            server = harness.Server(port=port, data=server.data)
            page.wait_synced(timeout=60)
            with tempfile.TemporaryDirectory() as directory:
                out = Path(directory) / "board.svg"
                subprocess.run([str(harness.binary()), "export", room, "--server", server.url, "--svg", str(out), "--timeout", "30"],
                               check=True, capture_output=True, timeout=60)
                self.assertEqual(out.read_text().count("<path"), 2, "the server has both strokes")
        finally:
            server.stop()

    def test_layout_fits_a_phone_and_touch_draws(self):
        page = self.open(width=375, height=667)
        self.assertEqual(page.js("return [innerWidth, innerHeight]"), [375, 667])
        bar = page.js("return document.querySelector('.topbar').getBoundingClientRect().bottom")
        for name in TOOLS:
            rect = page.js(f"return document.querySelector('[data-testid=\"tool-{name}\"]').getBoundingClientRect().toJSON()")
            self.assertGreaterEqual(rect["left"], 0, name)
            self.assertLessEqual(rect["right"], 375, name)
            self.assertGreater(rect["top"], bar, name)
            self.assertLessEqual(rect["bottom"], 667, name)
        toolbar = page.js("return document.querySelector('.toolbar').getBoundingClientRect().toJSON()")
        self.assertLess(toolbar["height"], 667 / 3, "the toolbar leaves room to draw")

        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(page.driver, mouse=finger, duration=10)
        actions.pointer_action.move_to(page.board, -100, -120).pointer_down()
        for step in range(1, 11):
            actions.pointer_action.move_to(page.board, -100 + 20 * step, -120 + 4 * step)
        actions.pointer_action.pointer_up()
        actions.perform()
        harness.wait_for(lambda: page.strokes() == 1, message="a touch stroke")
        page.settled()
        page.shot("07-phone")
        self.assertNoConsoleErrors(page)

    def test_two_fingers_pinch_zoom_and_pan_and_draw_nothing(self):
        page = self.open(width=375, height=667)
        view = lambda: page.js("return window.inkwell.viewport.toJSON()")  # noqa: E731
        start = view()

        def fingers(spread, shift):
            """Two fingers down at ±50 px about the board's middle, each moved by ±spread and both by shift."""
            actions = ActionBuilder(page.driver, duration=10)
            thumb = actions.add_pointer_input(interaction.POINTER_TOUCH, "thumb")
            finger = actions.add_pointer_input(interaction.POINTER_TOUCH, "finger")
            for touch, side in ((thumb, -1), (finger, 1)):
                touch.create_pointer_move(x=50 * side, y=0, origin=page.board)
                touch.create_pointer_down(button=0)
                for step in range(1, 11):
                    touch.create_pointer_move(x=round(50 * side + spread * side * step / 10 + shift * step / 10), y=0,
                                              origin=page.board, duration=16)
                touch.create_pointer_up(button=0)
            actions.perform()

        fingers(50, 0)
        pinched = view()
        self.assertAlmostEqual(pinched["scale"] / start["scale"], 2, delta=0.1, msg="spread from 100 to 200 px: twice the size")
        fingers(0, 40)
        panned = view()
        self.assertAlmostEqual(panned["scale"], pinched["scale"], delta=0.01, msg="moving together does not zoom")
        self.assertLess(panned["originX"], pinched["originX"], "the board follows the fingers to the right")
        self.assertEqual(page.strokes(), 0, "two fingers never draw")
        self.assertNoConsoleErrors(page)

    def test_dark_theme_keeps_dark_ink_visible(self):
        page = self.open()
        page.drag(line(300, 300, 600, 300))
        harness.wait_for(lambda: page.strokes() == 1, message="the stroke")
        page.tool("theme")
        self.assertEqual(page.js("return document.documentElement.dataset.theme"), "dark")
        page.settled()
        light = page.js("""
            const c = document.querySelector('[data-testid="board"] canvas.base');
            const r = c.width / c.clientWidth;
            return Array.from(c.getContext('2d').getImageData(Math.round(450 * r), Math.round(300 * r), 1, 1).data);""")
        self.assertGreater(min(light[:3]), 180, "black ink is drawn light on the dark board")
        page.shot("08-dark")
        self.assertNoConsoleErrors(page)


if __name__ == "__main__":
    unittest.main()
