#!/usr/bin/env python3
"""Pans and zooms a 500,000-point board in headless Chromium and prints the frame rates.

Starts `inkwell serve` (binary from $INKWELL_BINARY, default .build/debug/inkwell), opens
Web/bench/pan-zoom.html, which builds the board in the page with the page's own Board, Scene and
Renderer, moves the view one step per animation frame, and times requestAnimationFrame. Needs Chromium,
chromedriver and Selenium (Scripts/install-browser.sh).

    python3 Benchmarks/web-pan-zoom.py [--strokes 10000] [--points 50] [--images 0] [--texts 0]
        [--pressure] [--size 1440x900] [--runs 1] [--json]

--images and --texts add that many images (each its own blob, its bytes made in the page) and text boxes
among the strokes. --pressure gives every stroke a pen's pressure, so each is painted as an outline of
changing width.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Web" / "test" / "browser"))
import harness  # noqa: E402

PHASES = {
    "pan100": "pan at 100 %",
    "zoomOut": "zoom out to the whole board",
    "zoomIn": "zoom in to 200 %",
    "panWhole": "pan with the whole board in view",
    "pinch": "zoom in and out while panning",
}


def run_once(server, args):
    width, height = (int(v) for v in args.size.split("x"))
    driver = harness.chrome(width, height)
    try:
        driver.get(f"{server.url}/bench/pan-zoom.html?strokes={args.strokes}&points={args.points}"
                   f"&images={args.images}&texts={args.texts}&pressure={int(args.pressure)}&seed={args.seed}")
        deadline = time.monotonic() + args.timeout
        result = None
        while time.monotonic() < deadline:
            result = driver.execute_script("return window.benchResult ?? null")
            if result is not None:
                break
            time.sleep(0.5)
        if result is None:
            raise RuntimeError("the benchmark page did not finish")
        if "error" in result:
            raise RuntimeError(result["error"])
        errors = harness.severe_logs(driver)
        if errors:
            raise RuntimeError(f"console errors: {errors}")
        return result
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--strokes", type=int, default=10_000)
    parser.add_argument("--points", type=int, default=50, help="points per stroke")
    parser.add_argument("--images", type=int, default=0, help="images among the strokes")
    parser.add_argument("--texts", type=int, default=0, help="text boxes among the strokes")
    parser.add_argument("--pressure", action="store_true", help="strokes with a pen's pressure")
    parser.add_argument("--size", default="1440x900", help="viewport in CSS pixels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    args = parser.parse_args()

    # The benchmark page lives in Web/bench/, which the server serves only when asked.
    server = harness.Server(test_pages=True)
    try:
        results = [run_once(server, args) for _ in range(args.runs)]
    finally:
        server.stop()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for number, result in enumerate(results, 1):
        print(f"run {number}: {result['points']:,} points ({result['strokes']:,} strokes × {result['pointsPerStroke']}, "
              f"{result['images']:,} images, {result['texts']:,} text boxes, "
              f"{'with' if result['pressure'] else 'no'} pressure), "
              f"board {result['boardSide']} px square, viewport {result['viewport'][0]}×{result['viewport'][1]} "
              f"at ratio {result['devicePixelRatio']}")
        print(f"  build {result['buildMs']} ms, scene {result['sceneMs']} ms, first paint at 100 % {result['firstPaintMs']} ms, "
              f"whole board from no tiles {result['wholePaintMs']} ms")
        print(f"  {'phase':<36} {'frames':>6} {'median fps':>10} {'p5 fps':>7} {'work med/p95 ms':>16} {'stand-ins':>9} {'holes':>6}")
        rows = [(PHASES[name], result["phases"][name]) for name in PHASES] + [("all phases", result["overall"])]
        for label, p in rows:
            print(f"  {label:<36} {p['frames']:>6} {p['medianFps']:>10.1f} {p['p5Fps']:>7.1f} "
                  f"{p['medianWorkMs']:>7.1f}/{p['p95WorkMs']:<8.1f} {p['incompleteFrames']:>9} {p['holeFrames']:>6}")
    print("  stand-ins: frames where some tile was not painted yet at the current zoom and a coarser or finer one")
    print("  stood in for it; holes: frames where some tile had no stand-in either (partly blank).")


if __name__ == "__main__":
    main()
