"""Images end to end, against a real `inkwell serve`, with real pages and the Swift peer:

  a. Two pages (two Chromium) in one room. A pastes a generated PNG (a synthetic paste of a file, as the
     clipboard brings a screenshot): it is uploaded, then added in one change, and A shows it at once. B, its
     network throttled, sees the image's element first, a placeholder, and its sync indicator counting the
     image's bytes apart from the changes ("Synced" all along); then the image drawn. `inkwell join
     --export-svg` fetches the image into the Swift peer's store and embeds exactly the PNG's bytes, in the
     same SVG the page exports. A moves the image with the select tool: B sees the move. B reloads with the
     server gone and still shows the image, from IndexedDB.
  b. One page: a file that is not an image (dropped) and one over the limit (picked with the Image button's
     file input) are refused with a message and nothing is committed; the partial eraser passes over an
     image and the stroke eraser takes it whole; lasso and Ctrl+D copy it (the copy names the same blob);
     the PNG export paints its pixels; the history says "added an image".
  c. An encrypted board (made at `/`): the image is sealed before it is uploaded; a page on the view link
     opens and shows it, `inkwell join LINK` embeds the PNG's own bytes; the view link adds no image.

Run:  INKWELL_BINARY=.build/debug/inkwell python3 Web/test/browser/image_test.py -v
Env:  INKWELL_BINARY     the inkwell binary (default .build/debug/inkwell)
      INKWELL_ARTIFACTS  where screenshots and (on failure) console logs go (default .build/artifacts/image)
Needs Chromium, chromedriver and Selenium: Scripts/install-browser.sh.
"""

import base64
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import line  # noqa: E402

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PAGE_STATE = (
    "return {sync: document.querySelector('[data-testid=\"sync-status\"]').textContent,"
    " hash: window.inkwell?.hash(), selection: window.inkwell?.selection(), images: window.inkwell?.images(),"
    " progress: window.inkwell?.imageProgress(), notice: document.getElementById('notice')?.textContent}"
)

# The images on the board, bottom to top, as the drawing lists them.
IMAGES = """
return window.inkwell.session.board.strokes().filter((s) => s.image !== undefined).map((s) => ({
  id: s.id, blob: s.image.blob, bytes: s.image.bytes, type: s.image.type, width: s.image.width,
  height: s.image.height, at: s.points[0], transform: [...s.transform],
}));
"""

# A file handed to the page as a paste (`paste`) or a drop at a board point (`drop`): a DataTransfer holding
# it, in a synthetic event, as the clipboard and a drag from the desktop bring one. Returns whether the page
# took the event.
HAND_OVER = """
const [kind, data, name, type, x, y] = arguments;
const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
const transfer = new DataTransfer();
transfer.items.add(new File([bytes], name, { type }));
const board = document.querySelector('[data-testid="board"]');
const box = board.getBoundingClientRect();
const event = kind === 'paste'
  ? new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true })
  : new DragEvent('drop', { dataTransfer: transfer, clientX: box.left + x, clientY: box.top + y, bubbles: true, cancelable: true });
board.dispatchEvent(event);
return event.defaultPrevented;
"""

# Keeps every text the sync button's image progress shows, with its `data-images`, from now on.
WATCH_PROGRESS = """
window.__imageTexts = [];
const label = document.querySelector('[data-testid="image-progress"]');
const button = document.querySelector('[data-testid="sync-status"]');
new MutationObserver(() => window.__imageTexts.push([button.dataset.images ?? null, label.textContent, button.dataset.state]))
  .observe(button, { attributes: true, childList: true, subtree: true, characterData: true });
"""

# The colour (RGBA) of the base canvas at a board point (CSS px from its top-left).
PIXEL = """
const [x, y] = arguments;
const canvas = document.querySelector('[data-testid="board"] canvas.base');
const ratio = canvas.width / canvas.clientWidth;
return [...canvas.getContext('2d').getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data];
"""


def generated_png(width, height, seed=7):
    """An RGB PNG of reddish noise: red 192–255, green and blue 0–63. Noise does not compress, so the file is
    a few hundred KB (its progress shows); every pixel is reddish, so any pixel of it tells it is drawn."""
    rng = random.Random(seed)
    noise = rng.randbytes(width * height * 3)
    floor = bytes([192, 0, 0] * width)
    rows = bytearray()
    for y in range(height):
        row = noise[y * width * 3:(y + 1) * width * 3]
        rows.append(0)
        rows.extend(bytes(f | (n & 0x3F) for f, n in zip(floor, row)))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def reddish(rgba):
    r, g, b, a = rgba
    return a > 200 and r > 170 and g < 90 and b < 90


class Page(harness.ExactPointer, harness.Page):
    """The whiteboard, its view the board's origin at 100 %."""

    folder = ".build/artifacts/image"

    def hand_over(self, kind, data, name, type_, x=0, y=0):
        return self.js(HAND_OVER, kind, base64.b64encode(data).decode(), name, type_, x, y)

    def images(self):
        return self.js(IMAGES)

    def loading(self):
        """What the page says of its images: `images()` of the handle."""
        return self.js("return window.inkwell.images()")

    def pixel(self, x, y):
        return self.js(PIXEL, x, y)

    def changes(self):
        return self.js("return window.inkwell.session.board.changeCount")

    def notice(self):
        return self.js("const n = document.getElementById('notice'); return n.hidden ? '' : n.textContent")

    def image_progress(self):
        """The sync button's `data-images` and the words beside its state."""
        button = self.find("sync-status")
        return button.get_attribute("data-images"), self.find("image-progress").get_attribute("textContent")

    def throttle(self, down=None, up=None):
        """DevTools network emulation: downloads and uploads at so many bytes a second (None: no limit)."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        rate = lambda value: -1 if value is None else value  # noqa: E731
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": rate(down), "uploadThroughput": rate(up)})

    def svg(self):
        return self.download("tool-export-svg", ".svg").decode()


def embedded(svg):
    """The bytes of every data URL image in an SVG, in order."""
    return [base64.b64decode(data) for data in re.findall(r'<image [^>]*href="data:image/png;base64,([^"]+)"', svg)]


class ImageTest(harness.BrowserTest):
    page_class = Page
    state = PAGE_STATE
    clear_failures = True

    def swift_join_svg(self, server, room):
        """`inkwell join ROOM --wait-synced --export-svg`: the Swift peer's SVG, its images fetched into its store."""
        with tempfile.TemporaryDirectory() as directory:
            out = Path(directory) / "board.svg"
            subprocess.run([str(harness.binary()), "join", room, "--server", server.url, "--wait-synced", "--timeout", "60",
                            "--export-svg", str(out)], check=True, capture_output=True, timeout=90)
            return out.read_text()

    # a. Two pages and the Swift peer

    def test_an_image_pasted_on_one_page_loads_on_another_and_in_swift_and_offline(self):
        server = harness.Server()
        self.addCleanup(server.stop)
        with harness.failure_artifacts(self.pages, [server], self.artifacts(), "a", self.state):
            png = generated_png(384, 384)
            self.assertGreater(len(png), 250_000, "a few hundred KB, so its progress shows")
            alice = self.open("/r/images-together", "A", server=server)
            bob = self.open("/r/images-together", "B", server=server)
            for page in (alice, bob):
                page.same_view()
                page.wait_synced()
            self.assertEqual(alice.find("tool-image").get_attribute("title"), "Add an image (I)")

            # A's upload and B's download crawl, so the image takes seconds each way.
            alice.throttle(up=150_000)
            bob.throttle(down=120_000)
            alice.js(WATCH_PROGRESS)
            changes = alice.changes()
            self.assertTrue(alice.hand_over("paste", png, "noise.png", "image/png"), "A takes the paste")
            harness.wait_for(lambda: alice.image_progress()[0] == "uploading", timeout=5, message="A's upload in its indicator")
            self.assertEqual(alice.changes(), changes, "nothing on the board while the bytes go up")
            harness.wait_for(lambda: len(alice.images()) == 1, timeout=20, message="A's image")
            self.assertEqual(alice.changes(), changes + 1, "one change, once the upload is done")
            texts = alice.js("return window.__imageTexts")
            uploads = [text for state, text, _ in texts if state == "uploading"]
            self.assertTrue(any(re.fullmatch(r"Uploading image · \d+ KB of \d+ KB", text) and not text.startswith("Uploading image · 0 B")
                                for text in uploads), f"the upload's progress: {uploads}")
            self.assertTrue(all(sync == "synced" for state, _, sync in texts if state == "uploading"), "Synced while the image went up")
            harness.wait_for(lambda: alice.image_progress() == (None, ""), timeout=5, message="A's indicator done with the upload")
            alice.throttle()
            [image] = alice.images()
            self.assertEqual((image["type"], image["bytes"], image["width"], image["height"]), ("image/png", len(png), 384, 384),
                             "its natural size, its bytes as uploaded (an open room: not sealed)")
            self.assertEqual(alice.loading()[0]["decoded"], True, "A shows its own image at once")
            alice.settled()
            (x, y), middle = image["at"], (image["at"][0] + 192, image["at"][1] + 192)
            self.assertTrue(reddish(alice.pixel(*middle)), f"A draws the image: {alice.pixel(*middle)}")

            # B: the element at once, a placeholder, and the image's bytes counted apart from the changes.
            harness.wait_for(lambda: len(bob.images()) == 1, timeout=20, message="B to see the image's element")
            seen = []

            def loading_shown():
                state, text = bob.image_progress()
                seen.append((state, text, bob.sync_state()))
                return state == "loading" and re.fullmatch(r"Images 0 of 1 · [\d.]+ K?B of \d+ KB", text) and bob.sync_state() == "synced"
            harness.wait_for(loading_shown, timeout=10, interval=0.02, message="B's indicator to show the image loading")
            self.assertFalse(bob.loading()[0]["decoded"])
            bob.settled()
            self.assertEqual(bob.pixel(*middle)[:3], [229, 231, 235], "a grey placeholder meanwhile")
            bob.shot("a-loading-B")
            harness.wait_for(lambda: bob.loading()[0]["decoded"], timeout=30, message="B to decode the image")
            harness.wait_for(lambda: bob.image_progress() == (None, ""), timeout=5, message="B's indicator to say nothing of images")
            bob.settled()
            self.assertTrue(reddish(bob.pixel(*middle)), f"B draws the image: {bob.pixel(*middle)}")
            self.assertEqual(bob.pixel(*middle), alice.pixel(*middle), "the same pixel on both")
            self.assertTrue(any(state == "loading" and sync == "synced" for state, _, sync in seen), "Synced while the image loaded")
            bob.throttle()

            # The Swift peer fetches it and embeds exactly the PNG's bytes, in the SVG the pages export.
            room = alice.js("return window.inkwell.room")
            swift = self.swift_join_svg(server, room)
            self.assertEqual(embedded(swift), [png], "Swift embeds the PNG's bytes")
            page_svg = alice.svg()
            self.assertEqual(page_svg, swift, "the page's SVG is Swift's")
            self.assertEqual(bob.js("return window.inkwell.exportSVG()"), swift)
            self.assertIn(f'<image data-stroke="{image["id"]}" x="{x:g}" y="{y:g}" width="384" height="384" preserveAspectRatio="none"', swift)

            # A moves the image with the select tool; B sees it move.
            alice.tool("select")
            alice.click_at(*middle)
            self.assertEqual(alice.js("return window.inkwell.selection()"), [image["id"]], "a click inside the image selects it")
            alice.drag(line(middle[0], middle[1], middle[0] + 80, middle[1] + 50, 8))
            harness.wait_for(lambda: alice.images()[0]["transform"] == [1, 0, 0, 1, 80, 50], timeout=5, message="A's move")
            harness.wait_for(lambda: bob.images()[0]["transform"] == [1, 0, 0, 1, 80, 50], timeout=10, message="B to see the move")
            bob.settled()
            self.assertTrue(reddish(bob.pixel(x + 384 + 40, y + 384 + 25)), "B draws it where it went")
            self.assertEqual(bob.pixel(x + 20, y + 20)[3], 0, "and no longer where it was")
            alice.keys(Keys.ESCAPE)

            # B reloads with the server gone: the board from its store, the image from IndexedDB.
            bob.wait_synced()
            harness.wait_for(lambda: bob.js("return navigator.serviceWorker.controller !== null"), timeout=20, message="B's worker in charge")
            harness.wait_for(lambda: bob.driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name))
                    .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/sync') && !u.pathname.startsWith('/rooms/'))
                    .map((u) => u.pathname);
                caches.open('inkwell-shell-v1').then((c) => c.keys()).then((keys) => {
                    const kept = new Set(keys.map((k) => new URL(k.url).pathname));
                    done(kept.has('/index.html') && loaded.every((path) => kept.has(path)));
                });"""), timeout=20, message="B's files kept")
            self.assertNoConsoleErrors(alice, bob)
            server.stop(keep_data=True)
            bob.reload()
            bob.same_view()
            self.assertEqual(bob.sync_state(), "offline")
            self.assertEqual(len(bob.images()), 1)
            harness.wait_for(lambda: bob.loading()[0]["decoded"], timeout=10, message="B to show the image offline")
            bob.settled()
            self.assertTrue(reddish(bob.pixel(x + 384 + 40, y + 384 + 25)), "the image, offline")
            bob.shot("a-offline-B")

    # b. One page: refusals, erasers, copies, exports, history, a view link

    def test_one_page_refuses_what_is_no_image_and_edits_images_like_strokes(self):
        with self.diagnostics("b"):
            page = self.open("/r/images-one-page", "the page")
            page.same_view()
            page.wait_synced()
            changes = page.changes()

            # Not an image: refused by its bytes, whatever its name says.
            page.hand_over("drop", b"hello, this is text\n" * 10, "notes.png", "image/png", 400, 300)
            harness.wait_for(lambda: "not a PNG, JPEG, GIF or WebP" in page.notice(), timeout=5, message="the refusal of a text file")
            self.assertIn("notes.png", page.notice())
            # Over the limit: refused before it is read, picked with the Image button's file input.
            with tempfile.TemporaryDirectory() as directory:
                big = Path(directory) / "huge.png"
                big.write_bytes(generated_png(4, 4)[:64] + bytes(33 * 1024 * 1024))
                page.find("image-file").send_keys(str(big))
                harness.wait_for(lambda: "too large" in page.notice(), timeout=10, message="the refusal of a large file")
            time.sleep(0.5)
            self.assertEqual(page.changes(), changes, "nothing was committed")
            self.assertEqual(page.images(), [])

            # A dropped image lands where it is dropped.
            png = generated_png(120, 80, seed=3)
            page.hand_over("drop", png, "small.png", "image/png", 300, 250)
            harness.wait_for(lambda: len(page.images()) == 1, timeout=20, message="the dropped image")
            [image] = page.images()
            self.assertEqual((image["at"], image["width"], image["height"]), ([240, 210], 120, 80), "its natural size, centred on the drop")
            page.settled()
            self.assertTrue(reddish(page.pixel(300, 250)))

            # The partial eraser passes over it; the stroke eraser takes it whole; undo brings it back.
            across = line(200, 250, 400, 250, 10)
            changes = page.changes()
            page.tool("eraser")
            page.drag(across)
            time.sleep(0.3)
            self.assertEqual(page.changes(), changes, "the partial eraser leaves images alone")
            page.tool("stroke-eraser")
            page.drag(across)
            harness.wait_for(lambda: page.images() == [], timeout=5, message="the stroke eraser to take the image")
            page.chord("z")
            harness.wait_for(lambda: len(page.images()) == 1, timeout=5, message="undo to bring it back")

            # The lasso takes it by its corners; Ctrl+D copies it, naming the same blob, selected.
            page.tool("lasso")
            page.drag([(220, 190), (380, 190), (380, 310), (220, 310), (220, 200)])
            self.assertEqual(page.js("return window.inkwell.selection()"), [image["id"]])
            page.chord("d")
            harness.wait_for(lambda: len(page.images()) == 2, timeout=5, message="the copy")
            copy = page.images()[1]
            self.assertEqual((copy["blob"], copy["transform"]), (image["blob"], [1, 0, 0, 1, 16, 16]))
            self.assertEqual(page.js("return window.inkwell.selection()"), [copy["id"]])

            # The selection's PNG: the image's pixels, within the margin.
            width, height, rgba = harness.png_pixels(page.download("tool-export-png", ".png"))
            red = sum(1 for i in range(0, len(rgba), 4) if reddish(rgba[i:i + 4]))
            self.assertGreater(red, 0.6 * 120 * 80, "the image is painted in the PNG")
            page.keys(Keys.ESCAPE)

            # The history tells what the changes did.
            page.keys("h")
            label = page.find("history-label")
            harness.wait_for(lambda: "added an image" in label.text, timeout=5, message="the label of the image's change")
            page.find("history-close").click()
            self.assertNoConsoleErrors(page)

    # c. An encrypted board: the image sealed, opened on a view link and in Swift; a view link adds none

    def test_an_encrypted_board_seals_its_image_and_a_view_link_shows_it_but_adds_none(self):
        with self.diagnostics("c"):
            maker = self.open("/", "maker")
            maker.same_view()
            maker.wait_synced()
            self.assertTrue(maker.js("return window.inkwell.session.encrypted"))
            png = generated_png(64, 48, seed=5)
            maker.hand_over("drop", png, "sealed.png", "image/png", 400, 300)
            harness.wait_for(lambda: len(maker.images()) == 1, timeout=20, message="the maker's image")
            [image] = maker.images()
            self.assertEqual(image["bytes"], len(png) + 28, "sealed: a nonce and a tag more than the PNG")
            maker.wait_synced()

            maker.find("share").click()
            view = maker.find("share-view-link").get_attribute("value")
            maker.find("share-close").click()
            viewer = self.open(harness.link_path(view), "viewer")
            viewer.same_view()
            viewer.wait_synced()
            self.assertTrue(viewer.js("return window.inkwell.readOnly()"))
            harness.wait_for(lambda: viewer.loading() and viewer.loading()[0]["decoded"], timeout=20, message="the viewer to open and show the image")
            viewer.settled()
            self.assertTrue(reddish(viewer.pixel(400, 300)), f"the viewer draws it: {viewer.pixel(400, 300)}")

            # Swift, given the link, fetches the sealed blob, opens it with the room's key and embeds the PNG.
            with tempfile.TemporaryDirectory() as directory:
                out = Path(directory) / "board.svg"
                subprocess.run([str(harness.binary()), "join", maker.driver.current_url, "--wait-synced", "--timeout", "60",
                                "--export-svg", str(out)], check=True, capture_output=True, timeout=90)
                self.assertEqual(embedded(out.read_text()), [png])

            # A view link adds nothing, and says why.
            viewer.hand_over("paste", generated_png(10, 10), "tiny.png", "image/png")
            harness.wait_for(lambda: "View only" in viewer.notice(), timeout=5, message="the view link's answer")
            time.sleep(0.5)
            self.assertEqual(len(viewer.images()), 1)
            self.assertEqual(len(maker.images()), 1)
            self.assertNoConsoleErrors(maker, viewer)


if __name__ == "__main__":
    unittest.main()
