"""Collaboration end to end, against a real `inkwell serve`: two headless Chromium pages in one room draw,
erase, go offline and come back, reload, and end up pixel-identical; a Swift headless peer (`inkwell join`)
and a page see each other's strokes and hold the same board hash.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/collaboration_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots, diffs and (on failure) console logs go
                         (default .build/artifacts/collaboration)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.

Each page is its own Chromium (its own profile, so its own IndexedDB replica and localStorage), both with
the same viewport. Timings are printed as `[timing] …` lines.
"""

import hashlib
import json
import math
import re
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

HASH = re.compile(r"^[0-9a-f]{16}$")
JOIN_LINE = re.compile(r"^room (\S+) board (\S+): (\d+) changes, (\d+) strokes, hash (\S+)$", re.M)

# Installed before any of the page's scripts run (CDP Page.addScriptToEvaluateOnNewDocument): watches the
# page without changing it. It keeps every WebSocket the page opens with its open/close/error events, the
# pointer types of the presses on the board, and the time of each pointerup (Date.now(): one clock for every page
# on this machine, so one page's pen-up and another's first sight of the stroke can be subtracted).
PROBE = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.__probe = { sockets, pointerTypes: [], pointerUps: [], states: [] };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const record = { url: String(args[0]), events: [] };
      record.socket = this;
      sockets.push(record);
      for (const type of ['open', 'close', 'error']) {
        this.addEventListener(type, (e) => record.events.push([type, e.code ?? null, Date.now()]));
      }
    }
  };
  addEventListener('pointerdown', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid="board"]')) window.__probe.pointerTypes.push(e.pointerType);
  }, true);
  addEventListener('pointerup', () => window.__probe.pointerUps.push(Date.now()), true);
})();
"""

# Watches, every animation frame for 15 s, for the board to hold `count` strokes with ink painted at (x, y)
# on the base canvas: keeps the time (Date.now()) and hash it first saw that (`__seen`), then each board it
# holds while it does (`__sightings`), since a long stroke shows in parts, saved while it is drawn.
WATCH_FOR_STROKE = """
const [count, x, y] = arguments;
const canvas = document.querySelector('[data-testid="board"] canvas.base');
const context = canvas.getContext('2d');
window.__seen = null;
window.__sightings = [];
const until = Date.now() + 15000;
const look = () => {
  if (window.inkwell.strokeCount() >= count) {
    const ratio = canvas.width / canvas.clientWidth;
    const data = context.getImageData(Math.round(x * ratio) - 2, Math.round(y * ratio) - 2, 5, 5).data;
    let most = 0;
    for (let i = 3; i < data.length; i += 4) most = Math.max(most, data[i]);
    if (most > 100) {
      const sighting = { at: Date.now(), hash: window.inkwell.hash(), strokes: window.inkwell.strokeCount() };
      window.__seen ??= sighting;
      if (window.__sightings.at(-1)?.hash !== sighting.hash) window.__sightings.push(sighting);
    }
  }
  if (Date.now() < until) requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""

# Keeps every data-state the sync indicator takes from now on (it is an attribute: a MutationObserver
# sees each one, however briefly it is shown).
RECORD_STATES = """
const indicator = document.querySelector('[data-testid="sync-status"]');
const states = [indicator.dataset.state];
window.__probe.states = states;
new MutationObserver(() => states.push(indicator.dataset.state))
  .observe(indicator, { attributes: true, attributeFilter: ['data-state'] });
"""

# The same view on every page: 100 %, the board's origin at the top-left. Others' live cursors are hidden:
# the page draws them inside the board element (its `.cursors` layer), so A's cursor would show on B and
# B's on A. Nothing else is hidden: the toolbar floating over the board is in the shot, so both pages must
# have the same tool picked and the same undo state, and the mouse resting at the same place.
SAME_VIEW = """
const view = window.inkwell.viewport;
view.setScale(1);
view.originX = 0;
view.originY = 0;
view.version++;
window.inkwell.requestFrame();
// Through the layer's own style: the server's Content-Security-Policy refuses a <style> element added here.
document.querySelector('[data-testid="board"] .cursors').style.setProperty('visibility', 'hidden', 'important');
return [view.originX, view.originY, view.scale, devicePixelRatio, document.documentElement.dataset.theme,
        innerWidth, innerHeight];
"""


# What a failing test records of each page's state.
PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), strokes: window.inkwell?.strokeCount(),"
    " status: window.inkwell?.session.status, online: navigator.onLine,"
    " sockets: window.__probe?.sockets.map((s) => s.events), states: window.__probe?.states}"
)


def timing(label, seconds):
    print(f"  [timing] {label}: {seconds * 1000:.0f} ms", flush=True)


class Page(harness.Page):
    """The whiteboard watched by PROBE, drawn on with a mouse or a pen."""

    folder = ".build/artifacts/collaboration"

    def __init__(self, server, url, name):
        super().__init__(server, url, name, scripts=(PROBE,))

    def pieces(self, index=0):
        return self.js("const s = window.inkwell.session.board.strokes()[arguments[0]]; return s ? s.pieces.length : null", index)

    def sockets(self):
        """The page's WebSockets: [{url, events: [[type, code, time]], readyState}]."""
        return self.js("return window.__probe.sockets.map((s) => ({url: s.url, events: s.events, readyState: s.socket.readyState}))")

    def _offset(self, x, y):
        # Rounded, where the shared `drag` truncates: a pixel apart when the board's half height is not whole
        # (751 px high at 1280 × 800). This test's strokes have always been drawn at these offsets.
        return int(round(x - self.size[0] / 2)), int(round(y - self.size[1] / 2))

    def drag(self, points):
        """A mouse drag through `points` (CSS pixels from the board's top-left)."""
        chain = ActionChains(self.driver, duration=10)
        points = [(round(x), round(y)) for x, y in points]
        chain.move_to_element_with_offset(self.board, *self._offset(*points[0]))
        chain.click_and_hold()
        for (xa, ya), (xb, yb) in zip(points, points[1:]):
            chain.move_by_offset(xb - xa, yb - ya)
        chain.release()
        chain.perform()

    def pen_drag(self, points):
        """A pen (pointerType "pen") drag through `points`, pressing harder towards the middle."""
        pen = PointerInput(interaction.POINTER_PEN, "pen")
        actions = ActionBuilder(self.driver, mouse=pen, duration=10)
        actions.pointer_action.move_to(self.board, *self._offset(*points[0]))
        actions.pointer_action.pointer_down(pressure=0.4)
        for i, point in enumerate(points[1:], 1):
            pressure = 0.4 + 0.4 * (1 - abs(2 * i / len(points) - 1))
            actions.pointer_action.move_to(self.board, *self._offset(*point), pressure=pressure)
        actions.pointer_action.pointer_up()
        actions.perform()

    def board_png(self, name):
        """A screenshot of the board element alone, kept as an artifact and returned."""
        png = self.board.screenshot_as_png
        self.artifact(f"{name}.png").write_bytes(png)
        return png


class CollaborationTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def setUp(self):
        super().setUp()
        self.started = time.monotonic()
        print(flush=True)

    def tearDown(self):
        super().tearDown()
        timing(f"{self._testMethodName} in all", time.monotonic() - self.started)

    # 1. Two pages

    def test_two_pages_draw_erase_go_offline_reload_and_look_the_same(self):
        with self.diagnostics("1"):
            alice = self.open("/", "A")
            room = alice.js("return window.inkwell.room")
            # The link A's page gives: its Share dialog shows it, and its copy button copies it (read back from
            # A's clipboard).
            alice.driver.execute_cdp_cmd("Browser.grantPermissions", {
                "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": self.server.url})
            alice.find("share").click()
            shown = alice.find("share-edit-link").get_attribute("value")
            alice.find("copy-edit-link").click()
            harness.wait_for(lambda: "copied" in alice.find("share-status").text, message="A's link copied")
            link = alice.driver.execute_async_script(
                "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done(String(e)))")
            self.assertEqual(link, shown, "the copied link is the one shown")
            self.assertEqual(link, alice.driver.current_url, "the link is the page's address")
            self.assertEqual(urlparse(link).path, f"/r/{room}", "A's page shows its room's link")
            alice.keys(Keys.ESCAPE)
            harness.wait_for(lambda: not alice.driver.find_element(By.ID, "share-dialog").is_displayed(), message="the dialog closed")
            bob = self.open(link, "B")
            self.assertEqual(bob.js("return window.inkwell.room"), room)
            alice.wait_synced()
            bob.wait_synced()
            self.assertEqual(bob.hash(), alice.hash(), "both start from the same empty board")

            # A draws with a pen; B shows the stroke within a second.
            bob.js(WATCH_FOR_STROKE, 1, 450, 250)
            alice.pen_drag(line(250, 250, 650, 250))
            drawn = time.monotonic()
            harness.wait_for(lambda: bob.strokes() == 1 and bob.hash() == alice.hash() and bob.ink(450, 250) > 100,
                             timeout=5, interval=0.01, message="A's stroke on B's board")
            polled = time.monotonic() - drawn
            # The drag is longer than a checkpoint: B may show part of the stroke first; its final board counts.
            final = alice.hash()
            seen = harness.wait_for(
                lambda: next((s for s in bob.js("return window.__sightings") if s["hash"] == final), None),
                timeout=2, message="B's watcher")
            pen_up = alice.js("return window.__probe.pointerUps.at(-1)")
            delay = (seen["at"] - pen_up) / 1000
            timing("stroke visible on B after A's pen-up (in-page clocks)", delay)
            timing("stroke visible on B after A's drag returned (polled from the test)", polled)
            self.assertEqual(alice.js("return window.__probe.pointerTypes"), ["pen"])
            self.assertIsNotNone(alice.js("return window.inkwell.session.board.strokes()[0].pressures"), "a pen stroke keeps pressures")
            self.assertEqual(seen["strokes"], 1)
            self.assertEqual(seen["hash"], alice.hash(), "B shows A's stroke and holds A's board")
            self.assertLess(delay, 1.0, "B shows A's stroke within a second of pen-up")
            self.assertLess(polled, 1.0, "B shows A's stroke within a second, as the test saw it")
            self.assertGreater(bob.ink(300, 250), 100)
            self.assertGreater(bob.ink(600, 250), 100)
            self.assertEqual(bob.ink(450, 320), 0, "the stroke is where A drew it, not elsewhere")

            # B cuts the stroke's middle with the partial eraser (a mouse drag); A shows the cut.
            bob.tool("eraser")
            bob.drag(line(450, 190, 450, 310, 6))
            erased = time.monotonic()
            self.assertEqual(bob.js("return window.__probe.pointerTypes"), ["mouse"])
            harness.wait_for(lambda: bob.pieces() == 2, message="the stroke cut in two on B")
            harness.wait_for(lambda: alice.pieces() == 2 and alice.hash() == bob.hash(), timeout=5, interval=0.01,
                             message="B's cut on A's board")
            timing("B's erase on A's board", time.monotonic() - erased)
            alice.settled()
            self.assertEqual(alice.ink(450, 250), 0, "the erased middle is empty on A")
            self.assertGreater(alice.ink(300, 250), 100, "the left end is still inked on A")
            self.assertGreater(alice.ink(600, 250), 100, "the right end is still inked on A")
            self.assertEqual(alice.strokes(), 1)
            self.assertEqual(alice.hash(), bob.hash())
            bob.tool("pen")

            # A goes offline (DevTools network emulation): its socket closes and its indicator says so.
            harness.wait_for(lambda: any(s["readyState"] == 1 for s in alice.sockets()), message="A's socket open")
            open_before = sum(1 for s in alice.sockets() if s["readyState"] == 1)
            self.assertEqual(open_before, 1, "A has one sync socket")
            went = time.monotonic()
            # CDP's offline emulation refuses new connections but, in Chromium 156, leaves an open WebSocket
            # working (a probe socket opened before it still sends and receives). It also sets
            # navigator.onLine to false and fires `offline`, on which the page closes its socket itself
            # (Connector #networkWentAway). Should a Chromium emulate offline without firing the event,
            # `set_offline` fires it, as the browser fires it when the network really goes.
            alice.set_offline(True)
            harness.wait_for(lambda: all(s["readyState"] == 3 for s in alice.sockets()), timeout=5, message="A's socket closed")
            harness.wait_for(lambda: alice.sync_state() == "offline", timeout=5, message="A's indicator offline")
            timing("A's socket closed and indicator offline after going offline", time.monotonic() - went)
            print(f"  A's socket closes: {[[e for e in s['events'] if e[0] == 'close'] for s in alice.sockets()]}")
            self.assertTrue(all(any(e[0] == "close" for e in s["events"]) for s in alice.sockets()), "a close event for every socket")
            sockets_offline = len(alice.sockets())

            # A draws while offline: the indicator shows offline or uploading, never synced, and B gets nothing.
            alice.js(RECORD_STATES)
            bob_hash = bob.hash()
            alice.drag(line(250, 400, 650, 400))
            harness.wait_for(lambda: alice.strokes() == 2, message="A's offline stroke")
            harness.wait_for(lambda: "upload" in alice.find("sync-status").text, timeout=5, message="A's indicator to count what waits")
            print(f"  A's indicator while offline: {alice.find('sync-status').get_attribute('data-state')} {alice.find('sync-status').text!r}")
            alice.shot("1-offline-A")
            time.sleep(1.0)
            self.assertEqual((bob.strokes(), bob.hash()), (1, bob_hash), "nothing reaches B while A is offline")
            self.assertEqual(len(alice.sockets()), sockets_offline, "A opens no socket while offline")
            states = alice.js("return window.__probe.states")
            self.assertTrue(set(states) <= {"offline", "uploading"}, f"A's indicator while offline: {states}")
            mouse = alice.js("return window.inkwell.session.board.strokes()[1].pressures")
            self.assertTrue(mouse and all(0.44 <= p <= 1 for p in mouse), f"a mouse stroke's pressures come from its speed: {mouse}")

            # A comes back: both converge, and B shows A's offline stroke.
            back = time.monotonic()
            alice.set_offline(False)
            harness.wait_for(lambda: bob.strokes() == 2 and alice.hash() == bob.hash()
                             and alice.sync_state() == "synced" and bob.sync_state() == "synced",
                             timeout=15, interval=0.02, message="A and B to converge")
            timing("A and B converged (same hash, both synced) after A came back online", time.monotonic() - back)
            self.assertEqual(len([s for s in alice.sockets() if s["readyState"] == 1]), 1, "A reconnected once")
            bob.settled()
            self.assertGreater(bob.ink(450, 400), 100, "B shows A's offline stroke")
            self.assertEqual(bob.ink(450, 250), 0, "and still the cut")
            converged = alice.hash()

            # A reload of both pages keeps everything.
            reloaded = time.monotonic()
            alice.reload()
            bob.reload()
            for page in (alice, bob):
                self.assertEqual((page.strokes(), page.hash()), (2, converged), f"{page.name} after reload")
            alice.wait_synced()
            bob.wait_synced()
            timing("both pages reloaded and synced", time.monotonic() - reloaded)
            for page in (alice, bob):
                self.assertEqual((page.strokes(), page.hash()), (2, converged), f"{page.name} after reload and sync")

            # The board looks the same on both: the same view, then the board element's pixels.
            for page in (alice, bob):
                ActionChains(page.driver).move_to_element(page.driver.find_element(By.CSS_SELECTOR, ".brand")).perform()
            views = [page.js(SAME_VIEW) for page in (alice, bob)]
            self.assertEqual(views[0], views[1], "the same view, pixel ratio, theme and viewport on both")
            self.assertEqual(views[0][:3], [0, 0, 1])
            for page in (alice, bob):
                page.settled()
                # Two frames: the composite after the view moved is the smooth one.
                page.driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")
                page.settled()
            self.assertGreater(alice.ink(450, 400), 100)
            shots = [page.board_png(f"1-board-{page.name}") for page in (alice, bob)]
            summary = self.compare_pngs(*shots)
            self.artifacts().joinpath("1-board-diff.json").write_text(json.dumps(summary, indent=2) + "\n")
            print(f"  board screenshots: {summary['verdict']}")
            self.assertEqual(summary["differing_pixels"], 0, f"A's and B's boards differ: {summary}")
            self.assertNoConsoleErrors(alice, bob)

    def compare_pngs(self, first, second):
        """Byte-identical, else decoded and compared pixel by pixel; a summary (and a diff image's bounds)."""
        summary = {
            "bytes": [len(first), len(second)],
            "sha256": [hashlib.sha256(first).hexdigest(), hashlib.sha256(second).hexdigest()],
            "byte_identical": first == second,
        }
        if first == second:
            width, height, _ = harness.png_pixels(first)
            return {**summary, "size": [width, height], "differing_pixels": 0, "verdict": f"byte-identical PNGs, {width}×{height}"}
        (w1, h1, p1), (w2, h2, p2) = harness.png_pixels(first), harness.png_pixels(second)
        if (w1, h1) != (w2, h2):
            return {**summary, "size": [[w1, h1], [w2, h2]], "differing_pixels": max(w1 * h1, w2 * h2), "verdict": "different sizes"}
        differing, most, box = 0, 0, None
        for index in range(0, len(p1), 4):
            if p1[index:index + 4] != p2[index:index + 4]:
                differing += 1
                most = max(most, *(abs(a - b) for a, b in zip(p1[index:index + 4], p2[index:index + 4])))
                x, y = (index // 4) % w1, (index // 4) // w1
                box = [x, y, x, y] if box is None else [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
        verdict = "pixel-identical (PNG bytes differ)" if differing == 0 else f"{differing} pixels differ in {box}"
        return {**summary, "size": [w1, h1], "differing_pixels": differing, "largest_channel_difference": most,
                "differing_box": box, "verdict": verdict}

    # 2. A Swift peer and a page

    def join(self, room, data, *extra):
        """Runs `inkwell join ROOM --wait-synced` once; its report line as (changes, strokes, hash)."""
        command = [str(harness.binary()), "join", room, "--server", self.server.url, "--data", data,
                   "--wait-synced", "--timeout", "30", *extra]
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        timing(f"inkwell join {' '.join(extra) or '(sync only)'}", time.monotonic() - started)
        self.assertEqual(done.returncode, 0, f"{command}\nstdout: {done.stdout}\nstderr: {done.stderr}")
        match = JOIN_LINE.search(done.stdout)
        self.assertIsNotNone(match, f"join's report: {done.stdout!r}")
        self.assertEqual((match.group(1), match.group(2)), (room, "main"))
        print(f"  join: {match.group(0)}")
        return int(match.group(3)), int(match.group(4)), match.group(5)

    def test_a_swift_peer_and_a_page_see_each_others_strokes(self):
        with self.diagnostics("2"), tempfile.TemporaryDirectory(prefix="inkwell-join-") as data:
            # An open room: the Swift peer holds no capability nor key (the server runs with --open-rooms).
            page = self.open("/r/swift-peer-check", "browser")
            room = page.js("return window.inkwell.room")
            page.wait_synced()
            page.pen_drag(line(200, 200, 500, 260))
            harness.wait_for(lambda: page.strokes() == 1, message="the page's first stroke")
            page.wait_synced()

            # The peer draws 5 strokes; the page shows 5 more and holds the peer's board.
            changes, strokes, peer_hash = self.join(room, data, "--draw", "5")
            # Both hashes are FNV-1a 64 of the same canonical bytes as 16 lowercase hex digits, zero-padded
            # (Swift: BoardState.canonicalHash; the page: Board.hash() → fnv1a64): compared as strings.
            self.assertRegex(peer_hash, HASH)
            self.assertEqual(strokes, 6, "the peer holds the page's stroke and its own 5")
            arrived = time.monotonic()
            harness.wait_for(lambda: page.strokes() == 6 and page.hash() == peer_hash and page.sync_state() == "synced",
                             timeout=10, message="the peer's 5 strokes on the page")
            timing("the peer's strokes on the page after join exited", time.monotonic() - arrived)
            self.assertRegex(page.hash(), HASH)
            self.assertEqual(page.js("return window.inkwell.session.board.changeCount"), changes)

            # The page draws 2 more; a second run of the peer, on its same store, gets them.
            page.drag(line(200, 400, 500, 420))
            page.pen_drag(line(600, 200, 700, 400))
            harness.wait_for(lambda: page.strokes() == 8, message="the page's two new strokes")
            page.wait_synced()
            self.assertEqual(page.js("return window.__probe.pointerTypes"), ["pen", "mouse", "pen"])
            with tempfile.TemporaryDirectory() as directory:
                svg = Path(directory) / "board.svg"
                changes, strokes, peer_hash = self.join(room, data, "--export-svg", str(svg))
                swift_svg = svg.read_text()
            self.assertRegex(peer_hash, HASH)
            self.assertEqual(strokes, 8, "the peer sees the page's strokes")
            self.assertEqual(page.strokes(), 8)
            self.assertEqual(page.hash(), peer_hash, "the peer and the page hold the same board")
            self.assertEqual(page.js("return window.inkwell.session.board.changeCount"), changes)
            self.assertEqual(page.js("return window.inkwell.exportSVG()"), swift_svg, "and draw it the same")
            # Every stroke in view (the peer's are anywhere), for the artifact.
            page.keys("1")
            page.settled()
            self.assertEqual(page.strokes(), 8)
            page.board_png("2-board-browser-and-peer")
            self.assertNoConsoleErrors(page)

    # 3. A long stroke, saved while it is drawn

    def test_a_long_stroke_reaches_the_other_page_before_pen_up_and_undoes_whole(self):
        with self.diagnostics("3"):
            alice = self.open("/r/ink-checkpoint-check", "A")
            bob = self.open("/r/ink-checkpoint-check", "B")
            alice.wait_synced()
            bob.wait_synced()
            self.assertEqual((alice.strokes(), bob.strokes()), (0, 0))
            self.assertEqual(bob.hash(), alice.hash(), "both start from the same empty board")
            self.assertEqual(alice.js("return document.querySelector('[data-testid=\"tool-shapes\"]').getAttribute('aria-pressed')"),
                             "false", "shape recognition is off (and the wave is no shape anyway)")
            first = "const s = window.inkwell.session.board.strokes()[0]; return s ? {id: s.id, points: s.points.length} : null"
            changes = "return window.inkwell.session.board.changeCount"

            # A wave, far from any shape: 40 moves of 10 px right, up and down, paced over about two seconds
            # (the page saves what is drawn every 250 ms), and the button stays down.
            wave = [(200 + 10 * i, 300 + round(30 * math.sin(i * 0.7))) for i in range(61)]
            chain = ActionChains(alice.driver, duration=10)
            chain.move_to_element_with_offset(alice.board, *alice._offset(*wave[0]))
            chain.click_and_hold()
            for (xa, ya), (xb, yb) in zip(wave[:40], wave[1:41]):
                chain.move_by_offset(xb - xa, yb - ya)
                chain.pause(0.025)
            # B notes when it first paints a stroke at the wave's start (Date.now(): one clock on this machine).
            bob.js(WATCH_FOR_STROKE, 1, 200, 300)
            began = alice.js("return Date.now()")
            chain.perform()
            ended = alice.js("return Date.now()")
            timing("the held drag's 40 moves", (ended - began) / 1000)

            # Still down: B shows the stroke, and showed it while A's moves were still coming; A's board holds
            # it; and once the last checkpoint is in, both hold the same board: the 41 points drawn, one stroke.
            self.assertEqual(alice.js("return window.__probe.pointerUps"), [], "the button is still down")
            seen = harness.wait_for(lambda: bob.js("return window.__seen"), timeout=5, interval=0.01,
                                    message="A's stroke on B's board before pen-up")
            timing("A's saved ink painted on B after the drag began (in-page clocks)", (seen["at"] - began) / 1000)
            self.assertLess(seen["at"], ended, "B painted the stroke while A was still drawing it")
            self.assertEqual(alice.strokes(), 1, "A's board holds the saved part while the pen is down")
            # Clear (a second pointer could press it) waits for pen-up, as undo does: it changes nothing now.
            changes_before = alice.js(changes)
            alice.js("document.querySelector('[data-testid=\"tool-clear\"]').click()")
            self.assertEqual((alice.strokes(), alice.js(changes)), (1, changes_before), "no clear in mid-stroke")
            held = harness.wait_for(
                lambda: (lambda a, b: b if b is not None and b["points"] == 41 and a == b and alice.hash() == bob.hash() else None)(
                    alice.js(first), bob.js(first)),
                timeout=5, message="every point drawn so far on A's and B's boards while the pen is down")
            self.assertEqual(alice.js("return window.__probe.pointerUps"), [], "the button is still down")
            self.assertGreaterEqual(bob.js(changes), 2, "an addStroke and at least one appendPoints reached B")
            print(f"  while the pen is down: {held}, {bob.js(changes)} changes on B")
            bob.settled()
            self.assertGreater(bob.ink(200, 300), 100, "B paints the saved ink")

            # More of the wave, then pen-up: the rest extends the same stroke.
            chain = ActionChains(alice.driver, duration=10)
            for (xa, ya), (xb, yb) in zip(wave[40:], wave[41:]):
                chain.move_by_offset(xb - xa, yb - ya)
            chain.release()
            chain.perform()
            harness.wait_for(lambda: len(alice.js("return window.__probe.pointerUps")) == 1, message="A's pen-up")
            harness.wait_for(lambda: alice.sync_state() == "synced" and bob.sync_state() == "synced"
                             and alice.hash() == bob.hash() and bob.js(first) == alice.js(first)
                             and bob.js(first)["points"] > held["points"],
                             timeout=10, message="the rest of the stroke on both, synced")
            done = bob.js(first)
            print(f"  after pen-up: {done}, {bob.js(changes)} changes on B")
            self.assertEqual((alice.strokes(), bob.strokes()), (1, 1), "one stroke: the appends extend it")
            self.assertEqual(done["id"], held["id"], "the same stroke as while the pen was down")
            self.assertGreater(done["points"], held["points"], "pen-up saved the rest of the stroke")
            bob.settled()
            self.assertGreater(bob.ink(750, 300 + round(30 * math.sin(55 * 0.7))), 100, "B paints the part drawn last")

            # One undo takes back the whole stroke, on both.
            alice.chord("z")
            harness.wait_for(lambda: alice.strokes() == 0 and bob.strokes() == 0 and alice.hash() == bob.hash()
                             and alice.sync_state() == "synced" and bob.sync_state() == "synced",
                             timeout=10, message="one undo to take back the whole stroke on both")
            bob.settled()
            self.assertEqual(bob.ink(200, 300), 0, "nothing of the stroke is left on B")
            self.assertNoConsoleErrors(alice, bob)


if __name__ == "__main__":
    unittest.main()
