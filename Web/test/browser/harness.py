"""Starts `inkwell serve` on a free port with a temporary data directory, and headless Chromium; drives the
page in it.

Shared by the browser tests (Web/test/browser/*_test.py: their `Page`, `BrowserTest` and helpers) and the
pan/zoom benchmark (Benchmarks/web-pan-zoom.py). Needs Chromium, chromedriver and Selenium:
Scripts/install-browser.sh.
"""

import contextlib
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import traceback
import unittest
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def binary():
    """The inkwell binary: $INKWELL_BINARY, else .build/debug/inkwell in the repository."""
    path = Path(os.environ.get("INKWELL_BINARY", REPO / ".build" / "debug" / "inkwell"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        raise FileNotFoundError(f"no inkwell binary at {path}: build it (swift build) or set INKWELL_BINARY")
    return path


def artifacts(default=".build/artifacts"):
    """Where screenshots go: $INKWELL_ARTIFACTS, else `default` (relative to the repository)."""
    path = Path(os.environ.get("INKWELL_ARTIFACTS", REPO / default))
    if not path.is_absolute():
        path = REPO / path
    path.mkdir(parents=True, exist_ok=True)
    return path


class Server:
    """`inkwell serve --port 0` on a temporary data directory, serving this repository's Web/.

    With `open_rooms` (the default) any room name is an open room, as the tests that are not about access
    need (`/r/<name>` opens a board anyone may draw on, and the Swift peer, which holds no capabilities,
    joins it); boards made at `/` are guarded by their links all the same. Without it, an unknown name is
    refused, as on a server open to the internet.
    """

    def __init__(self, port=0, data=None, open_rooms=True, test_pages=False, retention_hours=None,
                 compaction_interval=None, lan=False, tls=None):
        """A new server; `port` and `data` restart one on the port and data of a stopped one. `test_pages` also
        serves Web/test/ and Web/bench/ (`--serve-test-pages`), which the server otherwise answers 404.
        `retention_hours` and `compaction_interval` (seconds) say how soon it drops the packs a checked room
        snapshot stands for (the server's defaults: thirty days, a minute). `lan` makes it a LAN hub; `tls`, a
        (certificate, key) pair of PEM files, serves https."""
        self.data = data or tempfile.mkdtemp(prefix="inkwell-web-")
        self.open_rooms = open_rooms
        arguments = [str(binary()), "serve", "--port", str(port), "--data", self.data, "--web", str(REPO / "Web"), "--log-level", "warning"]
        if open_rooms:
            arguments.append("--open-rooms")
        if test_pages:
            arguments.append("--serve-test-pages")
        if lan:
            # A LAN hub (`--lan`): advertised by mDNS, listening on every interface, `/lan` lists its addresses.
            arguments.append("--lan")
        if tls is not None:
            arguments += ["--tls-cert", tls[0], "--tls-key", tls[1]]
        if retention_hours is not None:
            arguments += ["--retention-hours", str(retention_hours)]
        if compaction_interval is not None:
            arguments += ["--compaction-interval", str(compaction_interval)]
        self.process = subprocess.Popen(
            arguments,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.port = None
        self.lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if line == "" and self.process.poll() is not None:
                break
            self.lines.append(line)
            match = re.search(r"listening on [^\s]*:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
        if self.port is None:
            self.stop()
            raise RuntimeError("inkwell serve did not start:\n" + "".join(self.lines))
        # Keep reading so the server never blocks on a full pipe.
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        self.url = f"{'https' if tls is not None else 'http'}://127.0.0.1:{self.port}"

    def _drain(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def stop(self, keep_data=False):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        drainer = getattr(self, "_drainer", None)
        if drainer is not None:
            drainer.join(timeout=5)
        self.process.stdout.close()
        if not keep_data:
            shutil.rmtree(self.data, ignore_errors=True)


def chrome(width=1440, height=900):
    """Headless Chromium with the page's viewport exactly `width` × `height` CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    # A LAN hub's test serves https with a self-signed certificate, as a hub on a school's network would.
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars", f"--window-size={width},{height}",
                     "--ignore-certificate-errors"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            options.binary_location = found
            break
    driver_path = shutil.which("chromedriver")
    # With a chromedriver on PATH, Selenium Manager (which wants the internet) is never asked.
    service = Service(executable_path=driver_path) if driver_path else Service()
    driver = webdriver.Chrome(options=options, service=service)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width, height):
    """Sizes the window so that the page itself (not the window) is `width` × `height`."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))


def metric(server, name):
    """A counter of the server's /metrics: 0 while it has none."""
    from urllib.request import urlopen

    with urlopen(f"{server.url}/metrics", timeout=5) as response:
        for row in response.read().decode().splitlines():
            if row.startswith(f"{name} "):
                return float(row.split(" ")[1])
    return 0


def link_path(url):
    """The path, query and fragment of a page's address: what to open on another page (the link's
    capability is in the query, its key in the fragment)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def wait_for(predicate, timeout=10.0, interval=0.05, message="condition"):
    """Polls until `predicate()` is truthy; returns its value."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {message} (last: {last!r})")


# The painted alpha (0–255) around a point of the board (CSS px from its top-left), on the base canvas
# (committed strokes) or the overlay (ink in progress): the most in a 5 × 5 device-pixel square.
INK_AT = """
const [x, y, which] = arguments;
const canvas = document.querySelector('[data-testid="board"] canvas.' + (which || 'base'));
const ratio = canvas.width / canvas.clientWidth;
const data = canvas.getContext('2d').getImageData(Math.round(x * ratio) - 2, Math.round(y * ratio) - 2, 5, 5).data;
let most = 0;
for (let i = 3; i < data.length; i += 4) most = Math.max(most, data[i]);
return most;
"""


def line(x0, y0, x1, y1, steps=16):
    """The `steps + 1` points of a straight drag from (x0, y0) to (x1, y1), both ends included."""
    return [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps + 1)]


def mouse_drag(driver, board, size, points, hold=False):
    """A mouse drag through `points` (CSS pixels from the top-left of `board`, an element of `size`); with
    `hold`, the button stays down (ink in progress) until the next release."""
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver, duration=10)
    # Whole pixels first, so the moves add up to exactly the points asked for.
    points = [(round(x), round(y)) for x, y in points]
    x0, y0 = points[0]
    chain.move_to_element_with_offset(board, int(x0 - size[0] / 2), int(y0 - size[1] / 2))
    chain.click_and_hold()
    for (xa, ya), (xb, yb) in zip(points, points[1:]):
        chain.move_by_offset(xb - xa, yb - ya)
    if not hold:
        chain.release()
    chain.perform()


def ink_at(driver, x, y, layer="base"):
    """The painted alpha (0–255) around (x, y) of the board on `layer` ("base" or "overlay")."""
    return driver.execute_script(INK_AT, x, y, layer)


# Keeps every Content-Security-Policy violation the page reports, from before its first script runs: one of
# a `Page`'s `scripts`, read back with `csp_violations`.
CSP_PROBE = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  (event) => window.__cspViolations.push(`${event.effectiveDirective} ${event.blockedURI}`));
"""


def csp_violations(driver):
    """What the page's Content-Security-Policy refused since it loaded, and the console's "Refused to" lines."""
    reported = driver.execute_script("return window.__cspViolations || []")
    logged = [entry["message"] for entry in driver.get_log("browser") if "Refused to" in entry.get("message", "")]
    return reported + logged


def severe_logs(driver):
    """The browser console's errors since the last call."""
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def set_offline(driver, offline):
    """Chrome DevTools network emulation: cuts the page off the network (`offline=True`) or restores it.

    In Chromium 156 this sets navigator.onLine, fires the window's `offline` / `online` events and refuses
    new connections, but leaves a WebSocket that is already open working: the page must close it itself.
    """
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": bool(offline), "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def png_pixels(data):
    """Decodes an 8-bit, non-interlaced PNG (as Chrome's screenshots are): (width, height, RGBA bytes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    offset, header, chunks = 8, None, []
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        offset += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                row[i] = (row[i] + row[i - channels]) & 0xFF
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, previous))
        elif kind == 3:
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = row[i - channels] if i >= channels else 0
                b, c = previous[i], (previous[i - channels] if i >= channels else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(row)
        previous = row
    pixels = b"".join(rows)
    if channels == 3:
        rgba = bytearray(width * height * 4)
        for channel in range(3):
            rgba[channel::4] = pixels[channel::3]
        rgba[3::4] = b"\xff" * (width * height)
        pixels = bytes(rgba)
    return width, height, bytes(pixels)


@contextlib.contextmanager
def failure_artifacts(pages, servers, folder, prefix, state_script):
    """On failure: a screenshot, the console log and the state (what `state_script` returns) of every
    page, the logs of `servers` (one file, server after server) and the traceback, in `folder`; then the
    failure goes on. `servers` is read only then, so servers started within count."""
    try:
        yield
    except BaseException:
        for page in pages:
            with contextlib.suppress(Exception):
                page.shot(f"{prefix}-FAILED-{page.name}")
            page.collect_console()
            with contextlib.suppress(Exception):
                page.console.append({"level": "STATE", "message": json.dumps(page.js(state_script))})
            log = "\n".join(f"{entry.get('timestamp', '')} {entry.get('level')} {entry.get('message')}"
                            for entry in page.collect_console())
            (folder / f"{prefix}-FAILED-{page.name}-console.log").write_text(log + "\n")
        (folder / f"{prefix}-FAILED-server.log").write_text("".join(row for server in servers for row in server.lines))
        (folder / f"{prefix}-FAILED-traceback.txt").write_text(traceback.format_exc())
        print(f"  failure artifacts in {folder}", flush=True)
        raise


# The viewport of every test's page unless it asks for another: the same on every page, so that two pages'
# boards can be compared pixel for pixel.
WIDTH, HEIGHT = 1280, 800


class ExactPointer:
    """Mouse input that lands on the CSS pixel asked for (rounded, where `mouse_drag` truncates), with the
    button held or Shift down: for tests that press on an element's handle or a text's end. Mix it in
    before `Page`."""

    def _offset(self, x, y):
        return int(round(x - self.size[0] / 2)), int(round(y - self.size[1] / 2))

    def drag(self, points, hold=False, shift=False):
        """A mouse drag through `points` (CSS pixels from the board's top-left); with `hold` the button
        stays down until `release`; with `shift` Shift is held throughout."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        chain = ActionChains(self.driver, duration=10)
        points = [(round(x), round(y)) for x, y in points]
        if shift:
            chain.key_down(Keys.SHIFT)
        chain.move_to_element_with_offset(self.board, *self._offset(*points[0]))
        chain.click_and_hold()
        for (xa, ya), (xb, yb) in zip(points, points[1:]):
            chain.move_by_offset(xb - xa, yb - ya)
        if not hold:
            chain.release()
        if shift:
            chain.key_up(Keys.SHIFT)
        chain.perform()

    def release(self):
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver, duration=10).release().perform()

    def click_at(self, x, y, shift=False):
        self.drag([(x, y), (x, y)], shift=shift)

    def double_click_at(self, x, y):
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver, duration=10).move_to_element_with_offset(self.board, *self._offset(x, y)).double_click().perform()


class Page:
    """One Chromium on the whiteboard: its own profile, so its own IndexedDB replica, localStorage and
    service worker, as another device's. Its console log is kept here, as WebDriver hands each entry out
    once. A test's subclass adds what only it needs and says where its artifacts go (`folder`)."""

    folder = ".build/artifacts"

    def __init__(self, server, url="/", name="the page", width=WIDTH, height=HEIGHT, scripts=()):
        """Opens `url` (a path on `server`, or a whole address); `scripts` run before the page's own, in
        every document it opens (to watch it from its start). `name` names the page in messages and files."""
        self.name = name
        self.console = []
        self.driver = chrome(width, height)
        for script in scripts:
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
        self.open(url if url.startswith("http") else server.url + url)

    def open(self, url):
        """Goes to `url` (a whole address) and waits for its board."""
        self.driver.get(url)
        self.opened()

    def opened(self, message=None):
        """Waits for the page to say its board is ready (its data-ready), then finds the board and its size."""
        wait_for(lambda: self.js("return document.documentElement.dataset.ready === 'true'"), timeout=20,
                 message=message or f"{self.name}'s board to open")
        self.board = self.find("board")
        self.size = self.js("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", self.board)

    def reload(self):
        self.driver.refresh()
        self.opened()

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, testid):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    # What the page shows

    def sync_state(self):
        """The sync indicator's data-state: synced, uploading, downloading, offline, paused."""
        return self.find("sync-status").get_attribute("data-state")

    def wait_state(self, state, timeout=20):
        wait_for(lambda: self.sync_state() == state, timeout=timeout, message=f"{self.name} {state}")

    def wait_synced(self, timeout=20):
        self.wait_state("synced", timeout)

    def settled(self):
        """Waits until every tile in view is painted: before reading ink that just changed."""
        wait_for(lambda: self.js("return window.inkwell.settled()"), message=f"{self.name}'s tiles painted")

    def strokes(self):
        return self.js("return window.inkwell.strokeCount()")

    def hash(self):
        return self.js("return window.inkwell.hash()")

    def ink(self, x, y, layer="base"):
        """The painted alpha around (x, y) of the board, as painted now (see `settled`)."""
        return ink_at(self.driver, x, y, layer)

    # Input: real events through WebDriver

    def tool(self, name):
        self.find(f"tool-{name}").click()

    def drag(self, points, hold=False):
        """A mouse drag through `points` (CSS pixels from the board's top-left); see `mouse_drag`."""
        mouse_drag(self.driver, self.board, self.size, points, hold)

    def same_view(self):
        """The board's origin at the top-left, at 100 %: board points are then the page's CSS pixels."""
        self.js("const v = window.inkwell.viewport; v.setScale(1); v.originX = 0; v.originY = 0; v.version++;"
                " window.inkwell.requestFrame();")

    def chord(self, key, modifier=None):
        """`modifier` (Ctrl by default) + `key` on whatever has the focus (the board, after a press on it)."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        modifier = Keys.CONTROL if modifier is None else modifier
        ActionChains(self.driver).key_down(modifier).send_keys(key).key_up(modifier).perform()

    def download(self, testid, suffix):
        """Clicks the button `testid` and returns the bytes of the file it downloads (named `*suffix`)."""
        with tempfile.TemporaryDirectory() as directory:
            self.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": directory})
            self.find(testid).click()

            def written():
                files = [f for f in Path(directory).iterdir() if f.suffix == suffix and f.stat().st_size > 0]
                return files[0] if files else None

            wait_for(written, timeout=10, message=f"the {suffix} download")
            return written().read_bytes()

    def keys(self, *keys):
        """Keys pressed on whatever has the focus."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(*keys).perform()

    def set_offline(self, offline):
        """Cuts the page off the network (DevTools emulation), firing the window's event where Chromium does not."""
        set_offline(self.driver, offline)
        if self.js("return navigator.onLine") == offline:
            self.js(f"window.dispatchEvent(new Event('{'offline' if offline else 'online'}'))")

    # Artifacts and the console

    def artifact(self, name):
        """Where the file `name` goes in the test's artifacts folder."""
        return artifacts(self.folder) / name

    def shot(self, name):
        self.driver.save_screenshot(str(self.artifact(f"{name}.png")))

    def collect_console(self):
        """Every console entry so far."""
        with contextlib.suppress(Exception):
            self.console.extend(self.driver.get_log("browser"))
        return self.console

    def severe(self):
        """The console's errors (its SEVERE entries) since the page opened."""
        return [entry for entry in self.collect_console() if entry.get("level") == "SEVERE"]

    def quit(self):
        with contextlib.suppress(Exception):
            self.driver.quit()


class BrowserTest(unittest.TestCase):
    """Tests of pages (`page_class`) against a real server, `self.server`: one for the whole class, started
    with `server_options`, unless those are None (then the test starts its own). Every page `open` opens is
    closed after its test; `diagnostics` keeps what a failure leaves, with the pages' artifacts."""

    page_class = Page
    server_options = {}
    # The script whose result a failure records of each page.
    state = "return null"
    # Whether to delete the failure artifacts an earlier run left first: only where no other test writes.
    clear_failures = False

    @classmethod
    def setUpClass(cls):
        if cls.clear_failures:
            for stale in cls.artifacts().glob("*-FAILED-*"):
                stale.unlink()
        if cls.server_options is not None:
            cls.server = Server(**cls.server_options)

    @classmethod
    def tearDownClass(cls):
        if cls.server_options is not None:
            cls.server.stop()

    def setUp(self):
        self.pages = []

    def tearDown(self):
        for page in self.pages:
            page.quit()

    def open(self, url="/", name="the page", server=None, **options):
        """A page of `page_class` on `url` of `server` (the test's own unless given), closed after the test."""
        page = self.page_class(server or self.server, url, name, **options)
        self.pages.append(page)
        return page

    @classmethod
    def artifacts(cls):
        return artifacts(cls.page_class.folder)

    def diagnostics(self, prefix):
        """On failure: a screenshot, the console log and the state of every page, and the server's log."""
        return failure_artifacts(self.pages, [self.server], self.artifacts(), prefix, self.state)

    def assertNoConsoleErrors(self, *pages):
        for page in pages:
            self.assertEqual(page.severe(), [], f"{page.name}'s console errors")
