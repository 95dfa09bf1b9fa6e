#!/usr/bin/env python3
"""Opens a board of 2,000,000 points from the page's IndexedDB store in headless Chromium and prints how long
it took to show it.

Starts `inkwell serve --open-rooms` (binary from $INKWELL_BINARY, default .build/debug/inkwell), fills the
page's own store with the board through Web/bench/seed-store.html (each stroke one change, stored as a
catch-up stores what it receives), then opens the room in the real page, `/r/ROOM`, --runs times, each a
fresh navigation of the same browser profile. For each it reads the page's marks on the performance timeline,
from the navigation's start: the store opened, the room's changes read and decoded, the page ready (board
built, scene made, handle out), and the first frame with every tile on screen painted. Needs Chromium,
chromedriver and Selenium (Scripts/install-browser.sh).

    python3 Benchmarks/web-load.py [--strokes 40000] [--points 50] [--pressure] [--size 1440x900]
        [--runs 3] [--json]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Web" / "test" / "browser"))
import harness  # noqa: E402

# Waits for the page's handle, then for the first animation frame in which every tile on screen is painted,
# and reads the page's marks. Runs as an async script: the last argument is Selenium's callback.
MEASURE = """
const done = arguments[arguments.length - 1];
(async () => {
  const inkwell = await window.inkwellReady;
  while (!inkwell.settled()) await new Promise((resolve) => requestAnimationFrame(resolve));
  const settled = performance.now();
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const navigation = performance.getEntriesByType('navigation')[0];
  // The page's modules, fetched (or revalidated) before it could open its store.
  const opened = performance.getEntriesByName('inkwell:store-opened')[0]?.startTime ?? settled;
  const scripts = performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('.js') && entry.startTime < opened);
  done({
    storeOpened: mark('inkwell:store-opened'),
    roomLoaded: mark('inkwell:room-loaded'),
    ready: mark('inkwell:ready'),
    settled,
    domContentLoaded: navigation?.domContentLoadedEventEnd ?? null,
    strokes: inkwell.strokeCount(),
    heapMiB: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null,
    marks: performance.getEntriesByType('mark').map((entry) => [entry.name, Math.round(entry.startTime)]),
    scripts: scripts.length,
    scriptsLoaded: scripts.reduce((last, entry) => Math.max(last, entry.responseEnd), 0),
  });
})().catch((error) => done({ error: String(error?.stack ?? error) }));
"""

STAGES = [
    ("storeOpened", "store opened"),
    ("roomLoaded", "changes read and decoded"),
    ("ready", "board built, page ready"),
    ("settled", "every tile on screen painted"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--strokes", type=int, default=40_000)
    parser.add_argument("--points", type=int, default=50, help="points per stroke")
    parser.add_argument("--pressure", action="store_true", help="strokes with a pen's pressure")
    parser.add_argument("--size", default="1440x900", help="viewport in CSS pixels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="openings of the room, each a fresh navigation")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    args = parser.parse_args()

    room = f"bench-load-{args.seed}"
    # The seeding page lives in Web/bench/, which the server serves only when asked.
    server = harness.Server(test_pages=True)
    width, height = (int(v) for v in args.size.split("x"))
    driver = harness.chrome(width, height)
    driver.set_script_timeout(args.timeout)
    try:
        driver.get(f"{server.url}/bench/seed-store.html?room={room}&strokes={args.strokes}&points={args.points}"
                   f"&seed={args.seed}&pressure={int(args.pressure)}")
        seeded = harness.wait_for(lambda: driver.execute_script("return window.seedResult ?? null"),
                                  timeout=args.timeout, message="the store filled")
        if "error" in seeded:
            raise RuntimeError(seeded["error"])
        runs = []
        for _ in range(args.runs):
            driver.get("about:blank")
            time.sleep(1)
            driver.get(f"{server.url}/r/{room}")
            result = driver.execute_async_script(MEASURE)
            if "error" in result:
                raise RuntimeError(result["error"])
            if result["strokes"] != args.strokes:
                raise RuntimeError(f"the page shows {result['strokes']} strokes, not {args.strokes}")
            runs.append(result)
        errors = harness.severe_logs(driver)
        if errors:
            raise RuntimeError(f"console errors: {errors}")
    finally:
        driver.quit()
        server.stop()

    if args.json:
        print(json.dumps({"seeded": seeded, "runs": runs}, indent=2))
        return
    print(f"board: {seeded['points']:,} points ({seeded['changes']:,} strokes × {args.points}, "
          f"{'with' if args.pressure else 'no'} pressure), {seeded['bytes'] / 1048576:.1f} MiB of changes, "
          f"stored in {seeded['ms']:,} ms; viewport {width}×{height}")
    print(f"  {'from the navigation to':<32} " + " ".join(f"{'run ' + str(n):>8}" for n in range(1, len(runs) + 1))
          + f" {'median':>8}")
    for key, label in STAGES:
        values = [run[key] for run in runs]
        cells = " ".join(f"{v:>8.0f}" if v is not None else f"{'-':>8}" for v in values)
        present = [v for v in values if v is not None]
        median = f"{statistics.median(present):>8.0f}" if present else f"{'-':>8}"
        print(f"  {label:<32} {cells} {median}  ms")
    print(f"  modules fetched before the store opened: {runs[-1]['scripts']}, the last by "
          f"{statistics.median(run['scriptsLoaded'] for run in runs):.0f} ms (median)")
    heaps = [run["heapMiB"] for run in runs if run["heapMiB"] is not None]
    if heaps:
        print(f"  JS heap after: {statistics.median(heaps):.0f} MiB (median)")


if __name__ == "__main__":
    main()
