"""Boards guarded by links and sealed with a key, end to end against a real `inkwell serve`: the share
dialog of a new board, a second page on the view link (sees strokes live, cannot draw, says View only),
what the server's files hold of an encrypted board against a plain one, and a page on a replaced view
link told it no longer works.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/access_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/access)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.

Each page is its own Chromium (its own profile, so its own IndexedDB: the view page holds only the view
link, as a stranger's device would).
"""

import contextlib
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import unittest
import zlib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

CAPABILITY = r"[A-Za-z0-9_-]{43}"
RED = "e03131"

# Keeps every change the page makes, as it makes it: the test then knows the exact operations sent.
RECORD_LOCAL = """
window.__local = [];
window.inkwell.session.addEventListener('change', (event) => {
  if (event.detail.origin === 'local') window.__local.push(...event.detail.changes);
});
"""

# The bytes the page puts on the wire for the points of each stroke it drew (an AddStroke's or
# AppendPoints' Points message, quantised and delta-encoded: Web/js/wire/points.js), as hex.
ENCODED_POINTS = """
const done = arguments[arguments.length - 1];
import('/js/wire/points.js').then(({ encodePoints }) => {
  const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  done(window.__local.flatMap((change) => change.operations)
    .filter((op) => op.op === 'addStroke' || op.op === 'appendPoints')
    .map((op) => hex(encodePoints(op.points, op.pressures ?? null))));
}, (error) => done(String(error)));
"""

# Installed before the page's scripts: counts the WebSockets it opens.
COUNT_SOCKETS = """
window.__sockets = 0;
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    window.__sockets += 1;
  }
};
"""

STATE = "return {status: document.querySelector('[data-testid=sync-status]').textContent, " \
        "notice: document.getElementById('notice').textContent, url: location.href, " \
        "strokes: window.inkwell?.strokeCount()}"


def zigzag(x0, y0, width, steps=12):
    """A stroke that bends at every point: its encoded residuals are distinctive, not runs of zeros."""
    return [(x0 + width * i / steps, y0 + (37 if i % 2 else 0) + 3 * i) for i in range(steps + 1)]


class Page(harness.Page):
    """The whiteboard, with the WebSockets it opens counted (COUNT_SOCKETS)."""

    folder = ".build/artifacts/access"

    def __init__(self, server, url, name, scripts=()):
        """`scripts`: more to run before the page's own, in every document it opens."""
        super().__init__(server, url, name, scripts=(COUNT_SOCKETS, *scripts))


# What the server keeps, read as a server (or anyone with its disk) could.

def protobuf_fields(data):
    """The (number, wire type, value) of each field of a protobuf message; stops at anything malformed."""
    fields, pos = [], 0

    def varint():
        nonlocal pos
        shift = result = 0
        while True:
            if pos >= len(data) or shift > 63:
                raise ValueError("truncated varint")
            byte = data[pos]
            pos += 1
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return result
            shift += 7

    try:
        while pos < len(data):
            key = varint()
            number, kind = key >> 3, key & 7
            if kind == 0:
                fields.append((number, kind, varint()))
            elif kind == 2:
                length = varint()
                fields.append((number, kind, bytes(data[pos:pos + length])))
                pos += length
            elif kind in (1, 5):
                size = 8 if kind == 1 else 4
                fields.append((number, kind, bytes(data[pos:pos + size])))
                pos += size
            else:
                break
    except ValueError:
        pass
    return fields


def opened_pack_body(blob):
    """A stored pack's body as a server can open it: inflated when deflated and not sealed; else as stored."""
    fields = {number: value for number, _, value in protobuf_fields(blob)}
    body = fields.get(4)
    if not isinstance(body, bytes):
        return b""
    if 6 in fields:
        return body  # sealed: the server holds no key
    if fields.get(3) == 1:
        with contextlib.suppress(zlib.error):
            return zlib.decompressobj(-15).decompress(body)
    return body


def server_holdings(data_directory):
    """Every byte the server keeps of its rooms: the raw bytes of packs.sqlite and its -wal, and every blob in
    its tables (read from a copy, so the running server is not disturbed) with each pack's body opened as far
    as the server itself could open it."""
    folder = Path(data_directory)
    raw = b"".join(path.read_bytes() for path in sorted(folder.glob("packs.sqlite*")) if path.is_file())
    opened = []
    with tempfile.TemporaryDirectory() as copy:
        for path in folder.glob("packs.sqlite*"):
            shutil.copy(path, Path(copy) / path.name)
        connection = sqlite3.connect(Path(copy) / "packs.sqlite")
        try:
            tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for row in connection.execute(f'SELECT * FROM "{table}"'):
                    for value in row:
                        if isinstance(value, bytes):
                            opened.append(value)
                            opened.append(opened_pack_body(value))
        finally:
            connection.close()
    return raw, opened


class AccessTest(harness.BrowserTest):
    """Each test starts the servers it needs (`start_server`), with open rooms or without."""

    page_class = Page
    server_options = None
    state = STATE

    def setUp(self):
        super().setUp()
        self.servers = []

    def tearDown(self):
        super().tearDown()
        for server in self.servers:
            server.stop()

    def start_server(self, **options):
        server = harness.Server(**options)
        self.servers.append(server)
        return server

    def diagnostics(self, prefix):
        """On failure: screenshots, console logs and page state of every page, the servers' logs."""
        return harness.failure_artifacts(self.pages, self.servers, self.artifacts(), prefix, STATE)

    # (a) and (b)

    def test_a_new_board_shares_an_edit_and_a_view_link_and_the_view_page_cannot_draw(self):
        server = self.start_server(open_rooms=False)
        with self.diagnostics("a"):
            alice = self.open("/", "A", server=server)
            alice.wait_synced()
            room = alice.js("return window.inkwell.room")
            self.assertRegex(alice.driver.current_url, rf"/r/{room}\?cap=e{CAPABILITY}#key={CAPABILITY}$")
            self.assertTrue(alice.find("view-only").get_attribute("hidden") is not None, "the maker can draw")

            # The dialog: a dialog, focus inside, the edit link (the page's address) and a view link.
            share = alice.find("share")
            share.click()
            dialog = alice.driver.find_element(By.CSS_SELECTOR, "#share-dialog [role='dialog']")
            harness.wait_for(lambda: dialog.is_displayed(), message="the share dialog")
            self.assertEqual(dialog.get_attribute("aria-modal"), "true")
            self.assertTrue(alice.js("return arguments[0].contains(document.activeElement)", dialog), "focus moved into the dialog")
            edit = alice.find("share-edit-link").get_attribute("value")
            view = alice.find("share-view-link").get_attribute("value")
            self.assertEqual(edit, alice.driver.current_url)
            self.assertRegex(view, rf"^{re.escape(server.url)}/r/{room}\?cap=v{CAPABILITY}#key={CAPABILITY}$")
            self.assertEqual(urlsplit(view).fragment, urlsplit(edit).fragment, "one key in both links")
            self.assertNotEqual(parse_qs(urlsplit(view).query)["cap"], parse_qs(urlsplit(edit).query)["cap"])
            for testid in ("copy-edit-link", "copy-view-link", "replace-edit-link", "replace-view-link"):
                self.assertTrue(alice.find(testid).is_displayed(), f"{testid} shown to the board's maker")
            self.assertNotIn(view, alice.js("return document.body.innerText + location.href"), "the view link is in no text but its field")
            alice.shot("a-share-dialog")
            # Tab stays in the dialog; Escape closes it and gives the focus back.
            for _ in range(12):
                alice.keys(Keys.TAB)
                self.assertTrue(alice.js("return arguments[0].contains(document.activeElement)", dialog), "Tab stays in the dialog")
            alice.keys(Keys.ESCAPE)
            harness.wait_for(lambda: not dialog.is_displayed(), message="Escape to close the dialog")
            self.assertFalse(alice.js("return arguments[0].contains(document.activeElement)", dialog))

            # (b) A second page on the view link: View only, no drawing tool, but the strokes live.
            bob = self.open(harness.link_path(view), "B", server=server)
            self.assertTrue(bob.find("view-only").is_displayed(), "View only in the top bar")
            self.assertEqual(bob.find("view-only").text, "View only")
            bob.wait_synced()
            self.assertEqual(bob.js("return window.inkwell.session.rights"), "view")
            for name in ("pen", "eraser", "stroke-eraser", "shapes", "undo", "redo", "clear"):
                button = bob.find(f"tool-{name}")
                self.assertEqual(button.get_attribute("aria-disabled"), "true", f"{name} disabled")
                self.assertEqual(button.get_attribute("tabindex"), "-1", f"{name} out of the Tab order")
            self.assertFalse(bob.find("colour-custom").is_enabled())
            self.assertEqual(bob.find("tool-zoom-in").get_attribute("aria-disabled"), None, "looking around still works")

            alice.find(f"colour-{RED}").click()
            alice.drag(zigzag(200, 200, 400))
            harness.wait_for(lambda: bob.strokes() == 1 and bob.hash() == alice.hash(), timeout=10,
                             message="A's stroke live on B's page")
            harness.wait_for(lambda: bob.js("return window.inkwell.settled()"), message="B settled")
            # The zigzag's sixth point: (400, 218).
            self.assertGreater(bob.ink(400, 218), 100, "painted on B's board")

            bob.drag(zigzag(200, 450, 400))
            bob.find("tool-clear").click()
            ActionChains(bob.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
            harness.wait_for(lambda: bob.js("return window.inkwell.settled()"), message="B settled")
            self.assertEqual(bob.strokes(), 1, "a drag on a view page adds no stroke; clear and undo do nothing")
            self.assertEqual(bob.js("return window.inkwell.session.board.changeCount"), 1)
            self.assertEqual(bob.ink(400, 480), 0, "nothing painted where B dragged")
            self.assertEqual(bob.js("return window.inkwell.session.status.bytesToUpload"), 0, "nothing waits to be sent")
            alice.wait_synced()
            self.assertEqual(alice.strokes(), 1, "nothing of B's reached A")
            bob.shot("b-view-only")
            self.assertNoConsoleErrors(alice, bob)

    # (c)

    def draw_and_read_the_server(self, path, name):
        """Draws a red zigzag on a fresh server at `path`, waits until it is synced, and returns what the
        server's files hold of it: (the encoded points of each stroke, whether any was found, whether the
        colour's bytes were found, whether the page sealed its board)."""
        server = self.start_server()
        page = self.open(path, name, server=server)
        page.wait_synced()
        page.js(RECORD_LOCAL)
        page.find(f"colour-{RED}").click()
        page.drag(zigzag(150, 220, 600, 16))
        page.drag(zigzag(180, 420, 500, 10))
        harness.wait_for(lambda: page.strokes() == 2, message=f"{name}'s two strokes")
        page.wait_synced()
        needles = page.driver.execute_async_script(ENCODED_POINTS)
        self.assertIsInstance(needles, list, needles)
        # A stroke drawn for longer than 250 ms is saved in parts while it is drawn: an addStroke, then
        # appendPoints, each a points message of its own. Those of 12 bytes or more are looked for: enough
        # not to be found by chance (a part of a point or two is shorter).
        needles = [needle for needle in needles if len(needle) >= 24]
        self.assertGreaterEqual(len(needles), 2, "a long enough points message at least for each stroke")
        raw, opened = server_holdings(server.data)
        self.assertGreater(len(raw), 0, "the server's files are there")
        points = [bytes.fromhex(needle) for needle in needles]
        # The colour as AddStroke carries it: field 1, fixed32 (tag 0x0d), RGBA little-endian.
        colour = bytes([0x0D, 0xFF]) + bytes.fromhex(RED)[::-1]
        haystacks = [raw, *opened]
        found_points = [any(needle in haystack for haystack in haystacks) for needle in points]
        found_colour = any(colour in haystack for haystack in haystacks)
        encrypted = page.js("return window.inkwell.session.encrypted")
        if not encrypted:
            # An open room's dialog: the one link, and who may draw with it.
            page.find("share").click()
            self.assertEqual(page.find("share-edit-link").get_attribute("value"), server.url + path)
            self.assertIn("Anyone with this link can draw", page.driver.find_element(By.ID, "share-dialog").text)
            self.assertFalse(page.find("share-view-link").is_displayed(), "no view link for an open room")
            self.assertFalse(page.find("replace-edit-link").is_displayed())
            page.keys(Keys.ESCAPE)
        self.assertNoConsoleErrors(page)
        return found_points, found_colour, encrypted

    def test_the_server_keeps_no_drawn_coordinates_of_an_encrypted_board_and_does_of_a_plain_one(self):
        with self.diagnostics("c"):
            # A plain board first (an open room, not encrypted): the search finds what was drawn, so it can
            # tell; then the same drawing on a new board, encrypted, leaves none of it on the server.
            plain_points, plain_colour, plain_sealed = self.draw_and_read_the_server("/r/plain-board-check", "plain")
            self.assertFalse(plain_sealed)
            self.assertTrue(all(plain_points), f"the plain board's strokes are on the server's disk: {plain_points}")
            self.assertTrue(plain_colour, "and their colour")
            sealed_points, sealed_colour, sealed = self.draw_and_read_the_server("/", "encrypted")
            self.assertTrue(sealed, "a new board is encrypted")
            self.assertFalse(any(sealed_points), f"no stroke's encoded points on the server's disk: {sealed_points}")
            self.assertFalse(sealed_colour, "nor the colour's bytes")
            print(f"  plain board: points found {plain_points}, colour {plain_colour}; encrypted: points {sealed_points}, colour {sealed_colour}")

    # (d)

    def test_replacing_the_view_link_tells_a_page_on_the_old_one_it_no_longer_works(self):
        server = self.start_server(open_rooms=False)
        with self.diagnostics("d"):
            alice = self.open("/", "A", server=server)
            alice.wait_synced()
            alice.find("share").click()
            old_view = alice.find("share-view-link").get_attribute("value")
            old_edit = alice.find("share-edit-link").get_attribute("value")
            alice.keys(Keys.ESCAPE)
            bob = self.open(harness.link_path(old_view), "B", server=server)
            bob.wait_synced()
            alice.drag(zigzag(200, 200, 300))
            harness.wait_for(lambda: bob.strokes() == 1, message="B on the view link sees A's stroke")

            alice.find("share").click()
            alice.find("replace-view-link").click()
            confirm = alice.find("share-confirm")
            harness.wait_for(lambda: confirm.is_displayed(), message="a confirmation")
            self.assertIn("loses access", confirm.text)
            alice.find("share-confirm-yes").click()
            harness.wait_for(lambda: "New view link ready" in alice.find("share-status").text, timeout=10,
                             message="the view link replaced")
            new_view = alice.find("share-view-link").get_attribute("value")
            self.assertNotEqual(new_view, old_view)
            self.assertEqual(alice.find("share-edit-link").get_attribute("value"), old_edit, "the edit link is kept")
            alice.shot("d-replaced")

            notice = bob.driver.find_element(By.ID, "notice")
            harness.wait_for(lambda: notice.is_displayed() and "no longer works" in notice.text, timeout=10,
                             message="B told the link no longer works")
            self.assertEqual(notice.get_attribute("role"), "alert")
            self.assertEqual(bob.find("sync-status").text, "No access")
            bob.shot("d-old-link")
            # No reconnecting against a dead capability: no socket opened after the refusal.
            opened = bob.js("return window.__sockets")
            time.sleep(3)
            self.assertEqual(bob.js("return window.__sockets"), opened, "B opens no new connection")
            self.assertEqual(bob.find("sync-status").text, "No access")

            # The new view link opens; the old one, opened afresh, is refused at once.
            carol = self.open(harness.link_path(new_view), "C", server=server)
            carol.wait_synced()
            self.assertEqual(carol.strokes(), 1)
            self.assertTrue(carol.find("view-only").is_displayed())
            dave = self.open(harness.link_path(old_view), "D", server=server)
            harness.wait_for(lambda: "no longer works" in dave.driver.find_element(By.ID, "notice").text, timeout=10,
                             message="the old link refused on a new visit")
            self.assertNoConsoleErrors(alice, carol)


if __name__ == "__main__":
    unittest.main()
