"""A LAN hub's page in headless Chromium against a real `inkwell serve --lan`: the share dialog shows the
board's link on the address other devices on the network reach the hub at, and its QR code, which zbarimg
(zbar-tools) reads back from a screenshot as that link. Over https (a self-signed certificate the other
device accepts) the link opens the same board in another page; over plain http on that address, the page
says why it cannot: browsers encrypt only on secure pages.

Run:  python3 Web/test/browser/lan_test.py
Env:  INKWELL_BINARY, INKWELL_ARTIFACTS as for the other browser tests.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import wait_for  # noqa: E402


def certificate(folder):
    """A self-signed P-256 certificate and its key for the hub, made by Debian's openssl."""
    cert, key = os.path.join(folder, "hub.pem"), os.path.join(folder, "hub-key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
         "-out", cert, "-days", "1", "-subj", "/CN=inkwell-hub", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )
    return cert, key


class LANHubTest(harness.BrowserTest):
    server_options = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.folder = tempfile.mkdtemp(prefix="inkwell-hub-tls-")
        cls.server = harness.Server(lan=True, tls=certificate(cls.folder))

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)
        super().tearDownClass()

    def test_the_share_dialog_shows_the_hubs_address_and_a_qr_code_of_the_link(self):
        page = self.open()
        room = page.js("return window.inkwell.room")
        page.find("share").click()
        section = page.find("share-lan")
        wait_for(section.is_displayed, timeout=10, message="the share dialog's section for this network")
        link = page.find("share-lan-link").get_attribute("value")
        port = self.server.port
        self.assertRegex(link, rf"^https://(\d+\.){{3}}\d+:{port}/r/{room}\?cap=e[A-Za-z0-9_-]{{43}}#key=[A-Za-z0-9_-]{{43}}$")
        self.assertNotRegex(link, r"^https://127\.")
        image = page.find("share-lan-qr")
        self.assertTrue(image.get_attribute("src").startswith("data:image/svg+xml,"))
        if shutil.which("zbarimg") is None:
            if os.environ.get("CI"):
                self.fail("CI installs zbar-tools (Scripts/install-packages.sh)")
            print("lan_test: zbarimg is not installed; the QR code is not read back")
        else:
            folder = tempfile.mkdtemp(prefix="inkwell-qr-")
            try:
                shot = os.path.join(folder, "qr.png")
                image.screenshot(shot)
                read = subprocess.run(["zbarimg", "-q", "--raw", shot], capture_output=True, text=True, timeout=30)
                self.assertEqual(read.stdout.strip(), link, "the QR code on screen reads as the link")
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        # Another device on the network opens the link: the same board.
        other = self.open(link, name="a device on the network")
        self.assertEqual(other.js("return window.inkwell.room"), room)
        self.assertTrue(re.match(rf"^https://(\d+\.){{3}}\d+:{port}/", other.driver.current_url))

    def test_over_plain_http_another_device_is_told_why_the_board_cannot_open(self):
        server = harness.Server(lan=True)
        try:
            address = json.load(urllib.request.urlopen(server.url + "/lan"))["urls"][0]
            driver = harness.chrome()
            try:
                driver.get(address + "/")
                wait_for(lambda: "secure pages" in driver.find_element("css selector", "body").text, timeout=20,
                         message="the page to say it needs a secure page")
            finally:
                driver.quit()
        finally:
            server.stop()

    def test_a_server_not_on_a_lan_shows_no_such_section(self):
        server = harness.Server()
        try:
            page = self.open(server=server)
            page.find("share").click()
            wait_for(lambda: page.find("share-close").is_displayed(), timeout=10, message="the share dialog")
            self.assertFalse(page.find("share-lan").is_displayed())
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
