#!/usr/bin/env python3
"""Runs one (library, workload) of the anchors' bench.py so that it measures what Inkwell's side does.

    anchor_run.py --anchors ../shared/anchors --lib loro --workload W2 [--scale 1.0]

bench.py is loaded as it is and changed in four ways, so the side-by-side table compares like with like
(Benchmarks/compare.py runs this, never bench.py itself):

- Equal information. Every point is snapped to Inkwell's ink grid (1/8 px, rounded half away from zero
  as Swift's `InkGrid.snap` rounds) before the library sees it: both sides store exactly the same
  coordinates, where the libraries were fed float32 values that Inkwell stores within 1/16 px.
- The same compression. Every update, diff, state vector and snapshot whose size is reported is also
  deflated as Inkwell deflates its packs: raw deflate (RFC 1951) by libdeflate at level 1, one buffer
  each, kept only when it saves at least a fifth (else the bytes go plain), outside the timed sections;
  the figures come out as `*_deflated_*` beside the uncompressed ones.
- Medians. bench.py keeps the best of its repeats; here it keeps their median, as inkwell-bench does.
- Memory measured alike. Resident memory is read after glibc's `malloc_trim(0)`, as inkwell-bench reads
  its own.

W1 also runs live (`w1_live`): the same stroke as drawn with a 240 Hz pen shown at 60 frames a second,
one update per frame, as Yjs apps batch; Inkwell's side is `AnchorWorkloads.w1Live`. W4 also runs durably
(`w4_durable`): a new device's whole path to its state stored on disk and every stroke read; Inkwell's
side is `W4DurableDevice`.

Prints one JSON object, as bench.py does.
"""
import argparse
import ctypes
import importlib.util
import json
import math
import statistics
import sys
import time

# Inkwell's packs (PackCodec.Compression.deflate): raw deflate by libdeflate (Debian's libdeflate0, which
# Scripts/install-packages.sh installs) at level 1, kept when it saves at least a fifth.
LEVEL = 1
libdeflate = ctypes.CDLL("libdeflate.so.0")
libdeflate.libdeflate_alloc_compressor.restype = ctypes.c_void_p
libdeflate.libdeflate_alloc_compressor.argtypes = [ctypes.c_int]
libdeflate.libdeflate_deflate_compress.restype = ctypes.c_size_t
libdeflate.libdeflate_deflate_compress.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                                   ctypes.c_void_p, ctypes.c_size_t]
COMPRESSOR = libdeflate.libdeflate_alloc_compressor(LEVEL)


def deflated(data):
    """The bytes `data` takes as Inkwell would send it: deflated if that saves a fifth, else plain."""
    data = bytes(data)
    room = len(data) - len(data) // 5
    out = ctypes.create_string_buffer(max(room, 1))
    size = libdeflate.libdeflate_deflate_compress(COMPRESSOR, data, len(data), out, room) if room else 0
    return size if size else len(data)


def snap(value):
    """InkGrid.snap: to the nearest 1/8, halves away from zero, as Swift's `rounded()`."""
    scaled = value * 8.0
    return math.copysign(math.floor(abs(scaled) + 0.5), scaled) / 8.0


def load_bench(anchors):
    spec = importlib.util.spec_from_file_location("bench", f"{anchors}/bench.py")
    bench = importlib.util.module_from_spec(spec)
    sys.path.insert(0, anchors)
    spec.loader.exec_module(bench)
    return bench


class Recorder:
    """Keeps the first few outputs of the adapter's byte-producing methods, by reference: deflated after
    the workload, never inside its timed sections."""

    def __init__(self, caps):
        self.caps = caps
        self.seen = {name: [] for name in caps}

    def wrap(self, adapter, name):
        original = getattr(adapter, name)

        def recording(*args, **kwargs):
            out = original(*args, **kwargs)
            kept = self.seen[name]
            if len(kept) < self.caps[name]:
                kept.append(out)
            return out

        setattr(adapter, name, recording)


# What each workload's byte figures are made of, and how many of each output that takes.
CAPS = {
    "W1": {"wire_sink": 1, "snapshot": 2},
    "W2": {"snapshot": 1},
    "W3": {"state_vector": 2, "diff": 2, "snapshot": 1},
    "W4": {"state_vector": 1, "diff": 1, "snapshot": 1},
}


def deflated_figures(workload, result, seen):
    """The `*_deflated_*` figures of a finished workload, from the outputs it recorded."""
    if workload == "W1":
        points = result["points"]
        sink = seen["wire_sink"][0]
        # The first snapshot is the empty stroke the stream starts from; the second the stroke's end.
        return {
            "wire_deflated_bytes_per_point": sum(deflated(u) for u in sink) / points,
            "snapshot_deflated_bytes_per_point": deflated(seen["snapshot"][1]) / points,
        }
    if workload == "W2":
        return {"snapshot_deflated_bytes_per_point": deflated(seen["snapshot"][0]) / result["points"]}
    if workload == "W3" and len(seen["diff"]) == 2:
        total = sum(deflated(b) for b in seen["state_vector"] + seen["diff"])
        new_points = 2 * result["added_per_replica"] * 50
        return {"bytes_exchanged_deflated": total, "bytes_exchanged_deflated_per_new_point": total / new_points}
    if workload == "W4" and seen["diff"]:
        points = result["sync"]["bytes"] / result["sync"]["bytes_per_point"]
        total = deflated(seen["state_vector"][0]) + deflated(seen["diff"][0])
        figures = {"sync": {"deflated_bytes_per_point": total / points}}
        if "snapshot" in result and seen["snapshot"]:
            figures["snapshot"] = {"deflated_bytes_per_point": deflated(seen["snapshot"][0]) / points}
        return figures
    return {}


# W1 live: a pen sampled at 240 Hz, one update per 60 Hz animation frame (Inkwell's LiveInk).
POINTS_PER_FRAME = 4


def frames_of(points):
    """The points each frame adds: the first frame the stroke's first five (samples 0 to 4), then four each."""
    first = POINTS_PER_FRAME + 1
    return [points[:first]] + [points[i:i + POINTS_PER_FRAME] for i in range(first, len(points), POINTS_PER_FRAME)]


def w1_live(bench, ad, n_points=1000, repeats=3):
    """W1's stroke drawn live: the first frame's update adds the stroke with its first points, each later
    frame's appends its points in one transaction. A remote peer applies the updates one by one."""
    import gc
    import random
    frames = frames_of(bench.gen_points(random.Random(1), n_points))
    authors, applies = [], []
    updates = None
    for _ in range(repeats):
        doc = ad.new_doc()
        ad.init_root(doc)
        base = ad.snapshot(doc)
        sink = ad.wire_sink(doc)
        gc.collect()
        gc.disable()
        t0 = time.perf_counter()
        if ad.name == "pycrdt":
            ad.add_stroke(doc, "s0", "#1e1e1e", 2.0, frames[0])
            pts = ad.strokes(doc)["s0"]["points"]
            for frame in frames[1:]:
                with doc.transaction():
                    pts.extend(frame)
        else:
            pts = ad.add_stroke(doc, "s0", "#1e1e1e", 2.0, frames[0])
            for frame in frames[1:]:
                for point in frame:
                    pts.push(point)
                doc.commit()
        t1 = time.perf_counter()
        gc.enable()
        assert len(sink) == len(frames), (len(sink), len(frames))
        remote = ad.load(base)
        t2 = time.perf_counter()
        for update in sink:
            ad.apply(remote, update)
        t3 = time.perf_counter()
        assert ad.points_len(remote, "s0") == n_points
        assert bench.canon(ad.to_json(remote)) == bench.canon(ad.to_json(doc))
        authors.append(t1 - t0)
        applies.append(t3 - t2)
        updates = list(sink)
    total = sum(len(u) for u in updates) / n_points
    total_deflated = sum(deflated(u) for u in updates) / n_points
    return {
        "live_frames": len(frames),
        "live_remote_bytes_per_point": total,
        "live_remote_deflated_bytes_per_point": total_deflated,
        "live_durable_bytes_per_point": total,
        "live_durable_deflated_bytes_per_point": total_deflated,
        "live_author_us_per_point": statistics.median(authors) * 1e6 / n_points,
        "live_remote_us_per_point": statistics.median(applies) * 1e6 / n_points,
    }


def w4_durable(bench, ad, n_strokes=10000, n_pts=50, repeats=5):
    """W4 as a new device takes it durably (decision 3): from the first byte to the state stored (the bytes
    received written to a file and fsynced, as a persisting app keeps a document's update) and every stroke
    read. Each library's paths are its sync (state vector, diff, apply) and, for Loro, its snapshot; the
    faster counts, as in the "fastest path" row."""
    import gc
    import os
    import tempfile
    strokes = bench.gen_strokes(2, n_strokes, n_pts, "a")
    total_points = n_strokes * n_pts
    src = bench.build_board(ad, strokes)
    modes = ["sync"] + (["snapshot"] if ad.name == "loro" else [])
    best = None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "device.bin")
        for mode in modes:
            times = []
            for _ in range(repeats):
                gc.collect()
                gc.disable()
                t0 = time.perf_counter()
                if mode == "snapshot":
                    received = ad.snapshot(src)
                    fresh = ad.load(received)
                else:
                    fresh = ad.new_doc()
                    received = ad.diff(src, ad.state_vector(fresh))
                    ad.apply(fresh, received)
                with open(path, "wb") as file:
                    file.write(bytes(received))
                    file.flush()
                    os.fsync(file.fileno())
                n = ad.touch_all(fresh)
                t1 = time.perf_counter()
                gc.enable()
                assert n == total_points
                times.append(t1 - t0)
                del fresh
            median = statistics.median(times) * 1e3
            best = median if best is None else min(best, median)
    return {"durable": {"total_plus_open_all_strokes_ms": best}}


def merge(result, extra):
    for key, value in extra.items():
        if isinstance(value, dict):
            result.setdefault(key, {}).update(value)
        else:
            result[key] = value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchors", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--workload", required=True, choices=sorted(CAPS))
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()

    bench = load_bench(args.anchors)
    exact = bench.gen_points
    bench.gen_points = lambda rng, n: [[snap(x), snap(y)] for x, y in exact(rng, n)]
    bench.best = statistics.median
    libc = ctypes.CDLL("libc.so.6")
    unadjusted = bench.cur_rss_mb

    def trimmed_rss_mb():
        libc.malloc_trim(0)
        return unadjusted()

    bench.cur_rss_mb = trimmed_rss_mb

    adapter = bench.ADAPTERS[args.lib]()
    recorder = Recorder(CAPS[args.workload])
    for name in CAPS[args.workload]:
        if hasattr(adapter, name):
            recorder.wrap(adapter, name)
    kw = {}
    if args.scale != 1.0:
        if args.workload in ("W2", "W4"):
            kw["n_strokes"] = int(10000 * args.scale)
        elif args.workload == "W3":
            kw.update(n_base=int(1000 * args.scale), n_add=int(1000 * args.scale), n_del=max(2, int(100 * args.scale)))
    t0 = time.perf_counter()
    result = bench.WORKLOADS[args.workload](adapter, **kw)
    wall = time.perf_counter() - t0
    merge(result, deflated_figures(args.workload, result, recorder.seen))
    if args.workload == "W1":
        merge(result, w1_live(bench, bench.ADAPTERS[args.lib]()))
    if args.workload == "W4":
        merge(result, w4_durable(bench, bench.ADAPTERS[args.lib](), **kw))
    print(json.dumps(dict(lib=adapter.name, version=adapter.version, workload=args.workload, scale=args.scale,
                          wall_s=wall, inputs="snapped to 1/8 px; medians; RSS after malloc_trim", result=result)))


if __name__ == "__main__":
    sys.exit(main())
