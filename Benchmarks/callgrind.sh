#!/usr/bin/env bash
# Instructions executed by a side-by-side workload, by function: `inkwell-bench engine --workloads` under
# Valgrind's callgrind. The counts come out the same run after run whatever else the machine is doing,
# so a change to a hot path can be judged by them where timings on a shared machine move by 20 %.
#
# Usage: Benchmarks/callgrind.sh [--workload W1] [--scale S] [--runs N] [--skip-build] [PATTERN ...]
# Prints the program's total and the inclusive count of each function whose name contains a PATTERN
# (by default the paths that decode, apply and log a received change), and keeps the profile as
# $INKWELL_SCRATCH/callgrind.<workload>.out for callgrind_annotate. Counts include each function's first
# call (metadata, caches), so compare runs with the same --runs, or the difference of two --runs.
#
# Debian 12's Valgrind (3.19) cannot run Swift 6 binaries. Valgrind 3.24.0 can, but for one bug: its
# rt_sigsuspend wrapper takes its own signal out of the caller's mask in the caller's memory, and
# libdispatch hands the kernel a mask that lives in read-only memory, so Valgrind died of a SIGSEGV as
# the main thread parked. The script builds 3.24.0 from Debian's source (checked by SHA-256) into the
# build folder, once, with that wrapper changed to work on a copy of the mask.
#
# Environment: INKWELL_SCRATCH, the build folder (default .build-callgrind).
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${INKWELL_SCRATCH:-.build-callgrind}"
workload=W1
scale=1
runs=1
build=1
patterns=()
while (($#)); do
    case "$1" in
    --workload) workload="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) patterns+=("$1"); shift ;;
    esac
done
if ((${#patterns[@]} == 0)); then
    patterns=("ChangeCodec.decode(" "WireReader.gridPoints(" "PackCodec.decode(" "BoardState.apply(_:)"
        "ChangeLog.insert(" "BenchReplica.receive(")
fi

version=3.24.0
valgrind="$PWD/$scratch/valgrind/bin/valgrind"
if [[ ! -x "$valgrind" ]]; then
    source_dir="$scratch/valgrind-source"
    mkdir -p "$source_dir"
    tarball="$source_dir/valgrind_$version.orig.tar.bz2"
    if [[ ! -f "$tarball" ]]; then
        echo "== fetching Valgrind $version's source from Debian" >&2
        curl -fsS -o "$tarball.part" "https://deb.debian.org/debian/pool/main/v/valgrind/valgrind_$version.orig.tar.bz2"
        mv "$tarball.part" "$tarball"
    fi
    echo "71aee202bdef1ae73898ccf7e9c315134fa7db6c246063afc503aef702ec03bd  $tarball" | sha256sum --check --quiet
    rm -rf "$source_dir/valgrind-$version"
    tar -xjf "$tarball" -C "$source_dir"
    python3 - "$source_dir/valgrind-$version/coregrind/m_syswrap/syswrap-linux.c" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
old = """      if (ML_(safe_to_deref)((vki_sigset_t *) (Addr)ARG1, sizeof(vki_sigset_t))) {
         VG_(sigdelset)((vki_sigset_t *) (Addr)ARG1, VG_SIGVGKILL);"""
new = """      if (ML_(safe_to_deref)((vki_sigset_t *) (Addr)ARG1, sizeof(vki_sigset_t))) {
         /* The caller's mask may be read-only: change a copy kept per thread. */
         static vki_sigset_t masks[4096];
         vg_assert(tid < 4096);
         masks[tid] = *(vki_sigset_t *) (Addr)ARG1;
         ARG1 = (Addr)&masks[tid];
         VG_(sigdelset)((vki_sigset_t *) (Addr)ARG1, VG_SIGVGKILL);"""
if text.count(old) != 1:
    sys.exit("callgrind.sh: the rt_sigsuspend wrapper is not where expected")
open(path, "w").write(text.replace(old, new))
EOF
    echo "== building Valgrind $version into $scratch/valgrind (about two minutes)" >&2
    (
        cd "$source_dir/valgrind-$version"
        ./configure --quiet --prefix="$PWD/../../valgrind" --enable-only64bit >/dev/null
        make --quiet -j"$(nproc)" >../build.log 2>&1
        make --quiet install >>../build.log 2>&1
    )
fi

if ((build)); then
    # W5 starts the `inkwell serve` built beside `inkwell-bench`.
    swift build -c release --scratch-path "$scratch" --product inkwell >&2
    swift build -c release --scratch-path "$scratch" --product inkwell-bench >&2
fi
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/inkwell-bench"
profile="$scratch/callgrind.$workload.out"

# Swift seeds its hashing per process; a fixed seed keeps dictionary probes, and so the counts, the same.
SWIFT_DETERMINISTIC_HASHING=1 "$valgrind" --tool=callgrind --callgrind-out-file="$profile" \
    "$binary" engine --workloads --json --filter "$workload" --scale "$scale" --runs "$runs" >/dev/null 2>"$profile.log" ||
    { cat "$profile.log" >&2; exit 1; }

"$(dirname "$valgrind")/callgrind_annotate" --inclusive=yes --threshold=100 --auto=no "$profile" 2>/dev/null |
    swift demangle --simplified |
    python3 -c '
import re, sys
workload, scale, runs, patterns = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
best = {}
total = None
for line in sys.stdin:
    m = re.match(r"\s*([0-9,]+) +\([^)]*\) +(.*)$", line)
    if not m or "=>" in line:
        continue
    count, name = int(m.group(1).replace(",", "")), m.group(2)
    if name.startswith("PROGRAM TOTALS"):
        total = count
        continue
    # "file:function [object]": callgrind lists a function once per source file it has lines from.
    name = re.sub(r" \[[^]]*\]\s*$", "", name)
    name = name.split(":", 1)[1] if ":" in name else name
    if any(p in name for p in patterns):
        best[name] = max(best.get(name, 0), count)
print(f"{workload} at scale {scale}, {runs} run(s): {total:,} instructions")
for name, count in sorted(best.items(), key=lambda item: -item[1]):
    print(f"{count:>14,}  {name}")
' "$workload" "$scale" "$runs" "${patterns[@]}"
