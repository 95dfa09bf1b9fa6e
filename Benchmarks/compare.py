#!/usr/bin/env python3
"""Inkwell side by side with Yrs (pycrdt) and Loro on the anchors' whiteboard workloads, like for like.

Run through Benchmarks/compare.sh, which installs the libraries and builds `inkwell-bench` first:

    Benchmarks/compare.sh [--passes 3] [--scale 1.0] [--runs 3] [--markdown FILE]

Each pass runs every (library, workload) of ../shared/anchors/bench.py in its own process, through
Benchmarks/anchor_run.py, and `inkwell-bench engine --workloads --json --filter Wn` in its own process,
interleaved workload by workload, so a slow spell of the shared machine hits both sides. The two sides
measure the same thing:

- the same information: the libraries get the points Inkwell stores (snapped to 1/8 px), not float32;
- the same compression: every size is shown uncompressed, then deflated alike (raw deflate by libdeflate
  at level 1, each update, diff or snapshot on its own, kept when it saves a fifth, as Inkwell deflates
  a pack);
- the same statistics: each figure is the median of the repeats inside a process (`--runs` for
  Inkwell, 3 for the libraries), and the table shows the median over passes, with the spread over
  passes (smallest to largest) printed after it;
- memory read alike: resident sets after glibc's `malloc_trim(0)` on both sides.

W5 has no library side: it is Inkwell through the real server against a raw loopback socket.

Prints one table (workload, figure, pycrdt, loro, inkwell, ratio) and ends with `worst ratio: X`: the
smallest of Inkwell's advantage ratios over the better of the two libraries, over every row that both
sides measure along the whole path (times, bytes and memory), leaving out the rows whose measured floor
puts the goal out of reach (each floor is printed in the same run, beside its ceiling) and the secondary
rows, which are not a whole path (W1's change per point, which the page never makes; W4's snapshot path,
whose library side reads no stroke).
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

LIBS = ["pycrdt", "loro"]
WORKLOADS = ["W1", "W2", "W3", "W4", "W5"]
TIMEOUT_S = 900

# (workload, label, key, lower_is_better, kind, goal[, library key]): kind is time, bytes or memory; goal
# is the advantage ratio the issue asks for (5x faster, half the bytes), None where it sets none. The
# library key, when given, is the libraries' figure the Inkwell figure is compared with.
ROWS = [
    ("W1", "live ink (240 Hz pen, 60 frames/s): bytes a remote peer receives per point, uncompressed",
     "live_remote_bytes_per_point", True, "bytes", 2),
    ("W1", "live ink: bytes a remote peer receives per point, each message deflated",
     "live_remote_deflated_bytes_per_point", True, "bytes", 2),
    ("W1", "live ink: bytes made durable per point, uncompressed", "live_durable_bytes_per_point", True, "bytes", 2),
    ("W1", "live ink: bytes made durable per point, each deflated", "live_durable_deflated_bytes_per_point", True,
     "bytes", 2),
    ("W1", "live ink: author, us per point", "live_author_us_per_point", True, "time", 5),
    ("W1", "live ink: remote peer, us per point", "live_remote_us_per_point", True, "time", 5),
    ("W1", "append 1 point per change + encode, us/point", "us_per_point", True, "time", 5, "append_us_per_point"),
    ("W1", "wire bytes per point, uncompressed", "wire_bytes_per_point", True, "bytes", 2),
    ("W1", "wire bytes per point, each update deflated", "wire_deflated_bytes_per_point", True, "bytes", 2),
    ("W1", "final snapshot, bytes per point, uncompressed", "snapshot_bytes_per_point", True, "bytes", 2),
    ("W1", "final snapshot, bytes per point, deflated", "snapshot_deflated_bytes_per_point", True, "bytes", 2),
    ("W1", "remote apply, us per update", "remote_apply_us_per_update", True, "time", 5),
    ("W2", "build 10k strokes x 50 points, ms", "build_ms", True, "time", 5),
    ("W2", "snapshot encode, ms", "snapshot_encode_ms", True, "time", 5),
    ("W2", "snapshot bytes per point, uncompressed", "snapshot_bytes_per_point", True, "bytes", 2),
    ("W2", "snapshot bytes per point, deflated", "snapshot_deflated_bytes_per_point", True, "bytes", 2),
    ("W2", "cold load (decode only), ms", "cold_load_ms", True, "time", 5),
    ("W2", "cold load + open every stroke, ms", "cold_load_plus_open_all_strokes_ms", True, "time", 5),
    ("W2", "resident memory added by the build, MB", "rss_growth_first_build_mb", True, "memory", None),
    ("W3", "merge both ways (encode + apply), ms", "merge_ms", True, "time", 5),
    ("W3", "bytes exchanged per new point, uncompressed", "bytes_exchanged_per_new_point", True, "bytes", 2),
    ("W3", "bytes exchanged per new point, deflated", "bytes_exchanged_deflated_per_new_point", True, "bytes", 2),
    ("W4", "sync path (vector + diff + apply), ms", "sync.total_ms", True, "time", 5),
    ("W4", "sync path, bytes per point, uncompressed", "sync.bytes_per_point", True, "bytes", 2),
    ("W4", "sync path, bytes per point, deflated", "sync.deflated_bytes_per_point", True, "bytes", 2),
    ("W4", "snapshot path, ms", "snapshot.total_ms", True, "time", 5),
    ("W4", "fastest path + open every stroke, ms", "fastest_plus_open_ms", True, "time", 5),
    ("W4", "new device, durable: first byte to stored on disk (fsync) and every stroke ready, ms",
     "durable.total_plus_open_all_strokes_ms", True, "time", 5),
]
# Rows that are not a whole path, kept for comparison with earlier tables: shown with their ratio, left out
# of the worst ratio and of the goals. The page never makes a change per point: while the pen moves, points
# go as presence, and the ink becomes changes every 250 ms and at pen-up (the live rows). W4's snapshot path
# stops, for the libraries, at an import that has read no stroke (Loro decodes lazily), where Inkwell's has
# every stroke ready: W4's whole path, first byte to every stroke ready, is "fastest path + open every stroke".
SECONDARY = {(wl, label) for wl, label, *_ in ROWS if wl == "W1" and not label.startswith("live ink")}
SECONDARY.add(("W4", "snapshot path, ms"))
SECONDARY_NOTE = {"W1": "secondary, a change per point", "W4": "secondary, no stroke read on the libraries' side"}
# Shown without a ratio.
INFO_ROWS = [
    ("W1", "live ink: animation frames / Inkwell's changes saved (checkpoints and pen-up)", "live_frames"),
    ("W1", "Inkwell, live ink: of the bytes a remote peer receives, presence per point", "live_presence_bytes_per_point"),
    ("W1", "Inkwell, live ink sealed (an encrypted room): bytes a remote peer receives per point",
     "live_sealed_remote_bytes_per_point"),
    ("W1", "Inkwell, live ink sealed: bytes made durable per point, deflated", "live_sealed_durable_deflated_bytes_per_point"),
    ("W1", "Inkwell, live ink sealed: author, us per point", "live_sealed_author_us_per_point"),
    ("W1", "Inkwell, live ink sealed: remote peer, us per point", "live_sealed_remote_us_per_point"),
    ("W1", "total for 1,000 points, ms", "append_total_ms"),
    ("W1", "Inkwell: the 1,000 points as one change at pen-up, bytes per point", "pen_up_change_bytes_per_point"),
    ("W2", "snapshot bytes", "snapshot_bytes"),
    ("W2", "Inkwell: cold open from the SQLite store, ms", "store_cold_open_ms"),
    ("W2", "Inkwell: the snapshot as the device stores it (deflated where that halves it), bytes per point",
     "stored_snapshot_bytes_per_point"),
    ("W2", "Inkwell, snapshot deflated for the network: encode, ms", "deflated_snapshot_encode_ms"),
    ("W2", "Inkwell, snapshot deflated for the network: cold load + open every stroke, ms",
     "deflated_cold_load_plus_open_all_strokes_ms"),
    ("W2", "peak resident memory of the process, MB", "peak_rss_mb"),
    ("W3", "bytes exchanged", "bytes_exchanged"),
    ("W3", "converged (same state, expected strokes)", "converged"),
    ("W3", "concurrent edits, ms per replica", "concurrent_edit_ms_per_replica"),
    # Forwarding stored packs leaves out their encoding and deflate: not the whole path, so no ratio.
    ("W4", "Inkwell: stored packs forwarded as pushed (decode + apply), ms", "stored.total_ms"),
    ("W4", "sync path, MB/s", "sync.MB_per_s"),
    ("W4", "snapshot path, MB/s", "snapshot.MB_per_s"),
    ("W4", "snapshot path, bytes per point", "snapshot.bytes_per_point"),
    ("W4", "Inkwell: snapshot path deflated for the network, ms", "snapshot_deflated.total_ms"),
    ("W4", "Inkwell: snapshot path deflated for the network, bytes per point", "snapshot_deflated.bytes_per_point"),
]
# Floors that no faster code passes while the design stands: (workload, label of a ROWS row, key, what it
# is). The row's ratio can be at most the better library's figure divided by the floor; where that is below
# the row's goal, the goal is out of reach by design, and the output says so.
FLOORS = [
    ("W1", "live ink (240 Hz pen, 60 frames/s): bytes a remote peer receives per point, uncompressed",
     "live_remote_floor_bytes_per_point",
     "per frame, a presence's room and device (the relay routes on them, a seal binds them), plus the saved "
     "changes' packs as sent, bytes"),
    ("W1", "live ink: bytes a remote peer receives per point, each message deflated", "live_remote_floor_bytes_per_point",
     "as above: per frame a presence's room and device, plus the packs as sent, bytes"),
    ("W1", "live ink: author, us per point", "live_sign_floor_us_per_point",
     "Ed25519 alone, signing the saved changes' packs, us"),
    ("W1", "live ink: remote peer, us per point", "live_verify_floor_us_per_point",
     "Ed25519 alone, verifying the saved changes' packs, us"),
    ("W1", "wire bytes per point, uncompressed", "self_contained_floor_bytes_per_point",
     "the least a change standing on its own carries: its 16-byte replica and its stamp's wall-clock ms, bytes"),
    ("W3", "merge both ways (encode + apply), ms", "merge_deflate_ms",
     "deflate alone (libdeflate): the two packs deflated and inflated, ms"),
    ("W4", "sync path (vector + diff + apply), ms", "sync.deflate_ms",
     "deflate alone (libdeflate): the pack deflated and inflated, ms"),
]
W5_ROWS = [
    ("corpus: changes / boards / rooms", None),
    ("corpus MB (encoded changes) / MB on the wire (deflated packs)", None),
    ("new client, socket only (frames read, packs kept as bytes), s", "sync_s"),
    ("  effective MB/s (corpus MB / time)", "sync_MB_per_s"),
    ("  CPU used meanwhile by the server / by the client, s", None),
    ("new client, socket + every change decoded, s", "sync_decode_s"),
    ("new client, SyncClient into a new SQLite store (verified, decoded, durable), s", "client_store_s"),
    ("raw loopback TCP, the bytes on the wire (equal bytes), s", "raw_loopback_wire_s"),
    ("new device's whole path, % of raw at equal bytes (aim: at least 50 %)", "store_percent_of_raw_at_equal_bytes"),
    # The floor no storage path passes: every pack's signature checked and its body inflated, in memory.
    ("floor: every pack verified and inflated in memory, no socket or store, CPU s", "packs_open_cpu_s"),
    ("  socket only (packs kept as bytes), % of raw at equal bytes", "socket_percent_of_raw_at_equal_bytes"),
    ("raw loopback TCP, as many bytes as the corpus's encoded changes, s", "raw_loopback_s"),
    ("  raw MB/s", "raw_loopback_MB_per_s"),
    ("  socket only against the corpus's bytes raw (not equal bytes), %", "sync_percent_of_raw"),
    # The same corpus sealed with a key per room, timed in turn with the plain one: best sealed, and its
    # ratio to the best plain.
    ("sealed (a key per room): MB on the wire", ("sealed_wire_mb", "wire_mb")),
    ("sealed: new client, socket only, s", ("sealed_sync_s", "sync_s")),
    ("sealed: socket + every pack opened and every change decoded, s", ("sealed_sync_decode_s", "sync_decode_s")),
    ("sealed: SyncClient into a new SQLite store, keys in its credentials, s",
     ("sealed_client_store_s", "client_store_s")),
]


def steal_jiffies():
    with open("/proc/stat") as f:
        parts = f.readline().split()
    return int(parts[8]) if len(parts) > 8 else 0


def flatten(prefix, obj, out):
    for k, v in obj.items():
        if isinstance(v, dict):
            flatten(f"{prefix}{k}.", v, out)
        else:
            out[f"{prefix}{k}"] = v
    return out


def run_anchor(anchors, lib, wl, scale):
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [sys.executable, os.path.join(here, "anchor_run.py"), "--anchors", anchors, "--lib", lib, "--workload", wl]
    if scale != 1.0:
        cmd += ["--scale", str(scale)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    if p.returncode != 0:
        raise SystemExit(f"{lib} {wl} failed:\n{p.stderr}")
    d = json.loads(p.stdout.strip().splitlines()[-1])
    return d["version"], flatten("", d["result"], {})


def run_inkwell(binary, wl, scale, runs):
    cmd = [binary, "engine", "--workloads", "--json", "--filter", wl, "--runs", str(runs), "--scale", str(scale)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    if p.returncode != 0:
        raise SystemExit(f"inkwell {wl} failed:\n{p.stderr}")
    out = {}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        assert set(o) == {"workload", "figure", "value"}, line
        if o["workload"] == wl:
            out[o["figure"]] = o["value"]
    if out.get("failed"):
        raise SystemExit(f"inkwell {wl} failed:\n{p.stderr}")
    return out


def is_time(k):
    leaf = k.split(".")[-1]
    return leaf.endswith("_ms") or leaf.endswith("_s") or leaf.startswith("us_") or "_us_" in leaf


def is_rate(k):
    leaf = k.split(".")[-1]
    return leaf in ("MB_per_s", "points_per_s") or leaf.endswith("MB_per_s") or leaf.endswith("percent_of_raw")


def middle(values):
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def aggregate(passes):
    """Timings and rates: the median over passes; memory the largest; everything else from pass 0."""
    agg = {}
    for k, v in passes[0].items():
        vals = [p[k] for p in passes if isinstance(p.get(k), (int, float)) and not isinstance(p.get(k), bool)]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            agg[k] = all(p.get(k) for p in passes) if isinstance(v, bool) else v
        elif k.endswith("rss_mb") or k.endswith("first_build_mb"):
            agg[k] = max(vals)
        elif is_rate(k) or is_time(k):
            agg[k] = middle(vals)
        else:
            agg[k] = v
    if "sync_server_cpu_s" in agg:
        # The CPU figures belong with the sync they were measured in: the median one.
        median = sorted(passes, key=lambda p: p["sync_s"])[len(passes) // 2]
        agg["sync_server_cpu_s"] = median["sync_server_cpu_s"]
        agg["sync_client_cpu_s"] = median["sync_client_cpu_s"]
    if "sealed_sync_server_cpu_s" in agg:
        median = sorted(passes, key=lambda p: p["sealed_sync_s"])[len(passes) // 2]
        agg["sealed_sync_server_cpu_s"] = median["sealed_sync_server_cpu_s"]
        agg["sealed_sync_client_cpu_s"] = median["sealed_sync_client_cpu_s"]
    if "sync.total_plus_open_all_strokes_ms" in agg:
        # Over the whole paths in memory only: forwarding stored packs leaves out their encoding, and the
        # durable path has its own row.
        agg["fastest_plus_open_ms"] = min(
            v for k, v in agg.items()
            if k.endswith("total_plus_open_all_strokes_ms") and not k.startswith(("stored.", "durable.")))
    return agg


def spread(passes, key):
    """(smallest, largest) of a figure over passes, or None where a pass lacks it."""
    vals = [p.get(key) for p in passes]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return None
    return min(vals), max(vals)


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        if abs(v) >= 100:
            return f"{v:,.0f}"
        if abs(v) >= 10:
            return f"{v:.1f}"
        if abs(v) >= 1:
            return f"{v:.2f}"
        return f"{v:.3f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def fmt_ratio(r):
    return f"{r:.1f}x" if r >= 10 else f"{r:.2f}x"


def machine_info():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem = f.readline().split(":", 1)[1].strip()
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{nproc} cores ({model}), {mem} memory, Linux {platform.release()}, Python {platform.python_version()}"


def table(agg, versions, scale):
    lines = []
    lines.append("| workload | figure | pycrdt | loro | inkwell | inkwell's advantage over the better library |")
    lines.append("| --- | --- | ---: | ---: | ---: | ---: |")
    ratios = []
    misses = []
    ceilings = {}
    for wl, label, key, what in FLOORS:
        row = next(r for r in ROWS if r[0] == wl and r[1] == label)
        libs = [agg.get(lib, {}).get(wl, {}).get(row[6] if len(row) > 6 else row[2]) for lib in LIBS]
        known = [v for v in libs if isinstance(v, (int, float)) and not isinstance(v, bool)]
        floor = agg["inkwell"].get(wl, {}).get(key)
        if known and isinstance(floor, (int, float)) and floor > 0:
            ceilings[(wl, label)] = (min(known) / floor, what, floor)
    for wl, label, key, lower, kind, goal, *lib_key in ROWS:
        if wl not in agg["inkwell"]:
            continue
        libs = [agg.get(lib, {}).get(wl, {}).get(lib_key[0] if lib_key else key) for lib in LIBS]
        ink = agg["inkwell"][wl].get(key)
        known = [v for v in libs if isinstance(v, (int, float)) and not isinstance(v, bool)]
        ratio = None
        secondary = (wl, label) in SECONDARY
        if known and isinstance(ink, (int, float)) and ink > 0:
            best = min(known) if lower else max(known)
            ratio = best / ink if lower else ink / best
            ceiling = ceilings.get((wl, label))
            # A row whose floor puts its goal out of reach says so beside it, and stays out of the worst ratio.
            if not secondary and not (goal is not None and ceiling and ceiling[0] < goal):
                ratios.append((ratio, wl, label))
            if goal is not None and ratio < goal and not secondary:
                misses.append((wl, label, ratio, goal, ceilings.get((wl, label))))
        mark = "" if ratio is None or goal is None or ratio >= goal or secondary else " (goal " + f"{goal}x)"
        if secondary:
            label = f"{SECONDARY_NOTE[wl]}: {label}"
        cell = "-" if ratio is None else f"**{fmt_ratio(ratio)}**{mark}"
        lines.append(f"| {wl} | {label} | {fmt(libs[0])} | {fmt(libs[1])} | {fmt(ink)} | {cell} |")
    for (wl, label), (ceiling, what, floor) in ceilings.items():
        lines.append(f"| {wl} | floor of \"{label}\": {what} | | | {fmt(floor)} | at most {fmt_ratio(ceiling)} |")
    for wl, label, key in INFO_ROWS:
        if wl not in agg["inkwell"]:
            continue
        libs = [agg.get(lib, {}).get(wl, {}).get(key) for lib in LIBS]
        ink = agg["inkwell"][wl].get(key)
        if key == "converged" and ink is not None:
            ink = bool(ink)
        shown = fmt(ink)
        if key == "live_frames" and ink is not None:
            shown = f"{fmt(ink)} / {fmt(agg['inkwell'][wl].get('live_checkpoints'))}"
        lines.append(f"| {wl} | {label} | {fmt(libs[0])} | {fmt(libs[1])} | {shown} | |")
    w5 = agg["inkwell"].get("W5")
    if w5:
        for label, key in W5_ROWS:
            if key is None and label.startswith("corpus:"):
                value = f"{fmt(w5['changes'])} / {fmt(w5['boards'])} / {fmt(w5['rooms'])}"
            elif key is None and label.startswith("  CPU"):
                value = f"{fmt(w5.get('sync_server_cpu_s'))} / {fmt(w5.get('sync_client_cpu_s'))}"
            elif key is None:
                value = f"{fmt(w5['corpus_mb'])} / {fmt(w5['wire_mb'])}"
            elif isinstance(key, tuple):
                sealed, plain = w5.get(key[0]), w5.get(key[1])
                value = fmt(sealed) if not (sealed and plain) else f"{fmt(sealed)} ({sealed / plain:.3f}x plain)"
            else:
                value = fmt(w5.get(key))
            lines.append(f"| W5 | {label} | | | {value} | |")
    lines.append("")
    lines.append("Versions: " + "; ".join(f"{lib} = {versions.get(lib, '?')}" for lib in LIBS))
    if scale != 1.0:
        lines.append(f"SCALED RUN: stroke counts x{scale}")
    return lines, ratios, misses


def spread_lines(raw):
    """Each timed row's spread over passes, per side: how far apart the passes the median came from lie."""
    lines = ["", "Spread over passes (smallest to largest), timed rows:", ""]
    lines.append("| workload | figure | pycrdt | loro | inkwell |")
    lines.append("| --- | --- | ---: | ---: | ---: |")
    for wl, label, key, _lower, kind, _goal, *lib_key in ROWS:
        if kind != "time" or wl not in raw.get("inkwell", {}):
            continue
        cells = []
        for side in LIBS + ["inkwell"]:
            field = lib_key[0] if lib_key and side != "inkwell" else key
            passes = raw.get(side, {}).get(wl, [])
            if field == "fastest_plus_open_ms":
                passes = [aggregate([p]) for p in passes]
            found = spread(passes, field) if passes else None
            cells.append("-" if found is None else f"{fmt(found[0])}–{fmt(found[1])}")
        lines.append(f"| {wl} | {label} | " + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inkwell-bench", required=True, help="the release-built inkwell-bench binary")
    ap.add_argument("--anchors", required=True, help="the anchors' folder (bench.py)")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3, help="repeats inside each Inkwell process (anchors: 3)")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--markdown", help="also write the table and machine to this file")
    ap.add_argument("--raw", help="also write every pass's figures as JSON to this file")
    args = ap.parse_args()
    workloads = args.workloads.split(",")

    raw = {"inkwell": {}}
    versions = {}
    started = time.time()
    for p in range(args.passes):
        for wl in workloads:
            sides = ([] if wl == "W5" else LIBS) + ["inkwell"]
            for side in sides:
                s0, t0 = steal_jiffies(), time.time()
                if side == "inkwell":
                    figures = run_inkwell(args.inkwell_bench, wl, args.scale, args.runs)
                else:
                    versions[side], figures = run_anchor(args.anchors, side, wl, args.scale)
                raw.setdefault(side, {}).setdefault(wl, []).append(figures)
                steal = (steal_jiffies() - s0) / os.sysconf("SC_CLK_TCK")
                print(f"pass {p} {wl} {side:8s} {time.time() - t0:6.1f}s steal={steal:.2f}s", file=sys.stderr, flush=True)

    agg = {side: {wl: aggregate(passes) for wl, passes in per.items()} for side, per in raw.items()}
    lines, ratios, misses = table(agg, versions, args.scale)
    lines += spread_lines(raw)
    head = [
        f"Machine: {machine_info()}.",
        f"Passes: {args.passes}, Inkwell repeats per process: {args.runs}, wall time {time.time() - started:.0f} s, "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
    ]
    print("\n".join(head + lines))
    if misses:
        print("\nShort of the goal (5x faster, half the bytes):")
        for wl, label, ratio, goal, ceiling in misses:
            reach = ""
            if ceiling and ceiling[0] < goal:
                reach = f"; out of reach by design, at most {fmt_ratio(ceiling[0])} ({ceiling[1]}: {fmt(ceiling[2])})"
            print(f"- {wl} {label}: {fmt_ratio(ratio)} (goal {goal}x){reach}")
    w5 = agg["inkwell"].get("W5")
    if w5:
        share = w5.get("store_percent_of_raw_at_equal_bytes", 0)
        met = "met" if share >= 50 else "not met"
        print(f"\nW5: a new device's whole path at {fmt(share)} % of raw loopback speed at equal bytes (aim 50 %: {met}).")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(head + lines) + "\n")
    if args.raw:
        with open(args.raw, "w") as f:
            json.dump(dict(versions=versions, raw=raw), f, indent=1)
    if ratios:
        worst = min(ratios)
        print(f"\n(worst row: {worst[1]} {worst[2]})")
        print(f"worst ratio: {worst[0]:.2f}")
    else:
        print("worst ratio: n/a")


if __name__ == "__main__":
    main()
