#!/usr/bin/env bash
# Inkwell side by side with Yrs (pycrdt) and Loro, on the whiteboard workloads of ../shared/anchors
# (W1–W4), plus W5 (Inkwell through the real server against a raw loopback socket). Installs the
# libraries' pinned versions into a virtualenv inside the build folder, builds `inkwell-bench` and the
# `inkwell` W5 serves from in release, runs both sides in interleaved passes, ends with `worst ratio: X`.
#
# Usage: Benchmarks/compare.sh [--passes N] [--runs N] [--scale S] [--workloads W1,W2,...]
#                              [--markdown FILE] [--raw FILE] [--skip-build]
# Environment: INKWELL_SCRATCH, the build folder (default .build); INKWELL_ANCHORS, the anchors' folder
# (default ../shared/anchors). A full run takes about 5 minutes on the 2-core machine, plus the build.
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${INKWELL_SCRATCH:-.build}"
anchors="${INKWELL_ANCHORS:-../shared/anchors}"
build=1
args=()
while (($#)); do
    case "$1" in
    --skip-build) build=0; shift ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
    esac
done

if [[ ! -f "$anchors/bench.py" ]]; then
    echo "compare.sh: no anchors at $anchors (set INKWELL_ANCHORS)" >&2
    exit 2
fi

venv="$scratch/venv"
if [[ ! -x "$venv/bin/python" ]]; then
    mkdir -p "$scratch"
    python3 -m venv "$venv"
fi
# --pre: the anchors' requirements pin automerge 1.0.0rc1 (not measured here, installed with the rest).
"$venv/bin/pip" install --quiet --disable-pip-version-check --pre -r "$anchors/requirements.txt"

if ((build)); then
    swift build -c release --scratch-path "$scratch" --product inkwell >&2
    swift build -c release --scratch-path "$scratch" --product inkwell-bench >&2
fi
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/inkwell-bench"

exec "$venv/bin/python" Benchmarks/compare.py --inkwell-bench "$binary" --anchors "$anchors" ${args[@]+"${args[@]}"}
