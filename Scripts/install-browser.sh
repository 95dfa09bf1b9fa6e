#!/usr/bin/env bash
# Installs headless Chromium, its WebDriver and Selenium for the browser smoke test and the web benchmark
# (Web/test/browser/smoke_test.py, Benchmarks/web-pan-zoom.py). Idempotent: quiet when all are present.
set -euo pipefail

have_browser() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}

if ! have_browser || ! command -v chromedriver >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "installing chromium and chromium-driver" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if ! python3 -c 'import selenium' >/dev/null 2>&1; then
    echo "installing selenium" >&2
    # Debian's Python is externally managed; fall back to --break-system-packages where pip insists.
    python3 -m pip install --quiet selenium 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages selenium
fi
