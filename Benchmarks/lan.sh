#!/usr/bin/env bash
# Sync without the cloud, timed: two "machines" on one LAN (network namespaces joined by a veth pair; needs
# root). In the first, `inkwell serve --lan` is a hub and a peer draws a board of STROKES strokes into it.
# In the second, `inkwell join ROOM --lan --wait-synced` finds the hub by mDNS and takes the whole board:
# printed are the time to find the hub (the browser's query to the first answer, from the peer's log) and
# the peer's whole run (process start to the board held and written to its store). Then RUNS more peers
# each time how long finding the hub takes, for a median.
#
# Usage: Benchmarks/lan.sh [--strokes N] [--runs N] [--skip-build]
# Environment: INKWELL_SCRATCH, the build folder (default .build-load, a release build).
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${INKWELL_SCRATCH:-.build-load}"
strokes=10000
runs=10
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --strokes) strokes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --skip-build) build=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ "$build" = 1 ]; then
    swift build -c release --product inkwell --scratch-path "$scratch" >&2
fi
binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/inkwell"

tag="$$"
a="inkbench${tag}a"
b="inkbench${tag}b"
work="$(mktemp -d)"
cleanup() {
    [ -n "${hub:-}" ] && kill "$hub" 2>/dev/null || true
    ip netns del "$a" 2>/dev/null || true
    ip netns del "$b" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip link add "vb${tag}a" type veth peer name "vb${tag}b"
ip link set "vb${tag}a" netns "$a"
ip link set "vb${tag}b" netns "$b"
ip -n "$a" addr add 10.78.0.1/24 dev "vb${tag}a"
ip -n "$b" addr add 10.78.0.2/24 dev "vb${tag}b"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "vb${tag}a" up
ip -n "$b" link set "vb${tag}b" up

ip netns exec "$a" "$binary" serve --lan --open-rooms --port 0 --data "$work/hub" --log-level warning > "$work/hub.out" &
hub=$!
until grep -q "listening on" "$work/hub.out"; do sleep 0.1; done
port="$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/hub.out" | head -1)"
echo "== drawing $strokes strokes into the hub (in the first namespace)"
start=$(date +%s.%N)
ip netns exec "$a" "$binary" join bench-room --server "http://127.0.0.1:$port" --draw "$strokes" --seed 1 \
    --offline-first --wait-synced --timeout 600
echo "drawn and uploaded in $(echo "$(date +%s.%N) - $start" | bc) s"

echo "== a peer on the other machine finds the hub and takes the board"
start=$(date +%s.%N)
ip netns exec "$b" "$binary" join bench-room --lan --wait-synced --timeout 600 --log-level notice 2> "$work/peer.err"
total="$(echo "$(date +%s.%N) - $start" | bc)"
found="$(sed -n 's/.*found_ms=\([0-9.]*\).*/\1/p' "$work/peer.err" | head -1)"
echo "found the hub in ${found} ms; the whole board of $strokes strokes held after ${total} s"

echo "== finding the hub, $runs more times"
times=()
for _ in $(seq 1 "$runs"); do
    ip netns exec "$b" "$binary" join empty-room --lan --wait-synced --timeout 60 --log-level notice 2> "$work/find.err" > /dev/null
    times+=("$(sed -n 's/.*found_ms=\([0-9.]*\).*/\1/p' "$work/find.err" | head -1)")
done
sorted="$(printf '%s\n' "${times[@]}" | sort -g)"
echo "found in (ms): $(echo "$sorted" | tr '\n' ' ')"
echo "median: $(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p") ms"
