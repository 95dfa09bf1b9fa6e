#!/usr/bin/env bash
# The server under load: builds `inkwell` and `inkwell-bench` in release, starts `inkwell serve` on a free
# port with a fresh data directory for each scenario, runs `inkwell-bench load` against it, and prints the
# generator's figures with the server's CPU and peak memory. Both processes share this machine's cores.
#
# Scenarios: 100 rooms × 10 members (all drawing); 1 room × 1,000 members of whom 50 draw; and the first
# again beside 10,000 idle connections (1,000 rooms of 10 where nobody draws), with the server's resident
# memory per connection.
# --linger-sweep adds 100 × 10 runs with --commit-linger 0, 2 and 5 ms, to choose the default by measurement:
# as specified (presence every 200 ms), and with presence once a second, a load this machine carries
# without saturating, so that commit timing is not hidden under queueing.
#
# Usage: Benchmarks/load.sh [--duration S] [--warmup S] [--linger-sweep] [--sweep-only] [--sweep-duration S]
#                           [--json] [--skip-build]
# Durations are whole seconds. Environment: INKWELL_SCRATCH, the build folder (default .build).
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${INKWELL_SCRATCH:-.build}"
duration=30
warmup=5
sweep=0
main=1
sweep_duration=15
json=()
build=1

while (($#)); do
    case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --linger-sweep) sweep=1; shift ;;
    --sweep-only) sweep=1; main=0; shift ;;
    --sweep-duration) sweep_duration="$2"; shift 2 ;;
    --json) json=(--json); shift ;;
    --skip-build) build=0; shift ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "load.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

if ((build)); then
    swift build -c release --scratch-path "$scratch" --product inkwell
    swift build -c release --scratch-path "$scratch" --product inkwell-bench
fi
binary="$scratch/release/inkwell"
bench="$scratch/release/inkwell-bench"
for built in "$binary" "$bench"; do
    [[ -x "$built" ]] || { echo "load.sh: no $built; build first" >&2; exit 1; }
done

# 1,000 connections need 1,000 descriptors in each process, and more to spare.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
echo "open files limit: $(ulimit -n)"
echo "machine: $(nproc) cores, $(uname -sr); $(swift --version 2>/dev/null | head -1)"

ticks="$(getconf CLK_TCK)"
server_pid=""
workdir=""
failures=0

# Stops the server with SIGTERM, as an operator would; kills it if it has not exited within 20 s.
# Returns non-zero unless it exited cleanly after SIGTERM.
stop_server() {
    local pid="$1"
    kill -TERM "$pid" 2>/dev/null || return 1
    for _ in $(seq 1 200); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "load.sh: the server did not exit within 20 s of SIGTERM; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        return 1
    fi
    wait "$pid"
}

cleanup() {
    if [[ -n "$server_pid" ]]; then stop_server "$server_pid" || true; fi
    if [[ -n "$workdir" ]]; then rm -rf "$workdir"; fi
    server_pid=""
    workdir=""
}
trap cleanup EXIT

# utime + stime of a process, in clock ticks.
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# server_push_to_ack PORT: the server's own share of a push's latency over the whole run, from its
# inkwell_push_to_ack_seconds histogram (arrival to ack queued): the bucket bounds that hold p50 and p99.
server_push_to_ack() {
    curl -sf "http://127.0.0.1:$1/metrics" | awk '
        /^inkwell_push_to_ack_seconds_bucket/ {
            match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5)
            bounds[n] = le; counts[n] = $NF; n++
        }
        /^inkwell_push_to_ack_seconds_count/ { total = $NF }
        END {
            if (total == 0) { print "server push to ack: no samples"; exit }
            split("0.5 0.99", qs, " ")
            line = sprintf("server push to ack (whole run, %d pushes):", total)
            for (q = 1; q <= 2; q++) {
                for (i = 0; i < n; i++) if (counts[i] >= qs[q] * total) break
                bound = bounds[i] == "+Inf" ? "> 1000 ms" : sprintf("<= %g ms", bounds[i] * 1000)
                line = line sprintf(" p%g %s", qs[q] * 100, bound)
            }
            print line
        }' || echo "server push to ack: /metrics not read"
}

# run_scenario LABEL LINGER_MS LOAD_ARGUMENTS...
run_scenario() {
    local label="$1" linger="$2"
    shift 2
    sleep 5 # let the previous scenario's sockets and load settle
    workdir="$(mktemp -d)"
    "$binary" serve --port 0 --data "$workdir/data" --commit-linger "$linger" --log-level warning --open-rooms --connections-per-address 100000 \
        >"$workdir/serve.out" 2>"$workdir/serve.err" &
    server_pid=$!
    local port=""
    for _ in $(seq 1 300); do
        port="$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$workdir/serve.out")"
        [[ -n "$port" ]] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$port" ]]; then
        echo "load.sh: the server did not start" >&2
        cat "$workdir/serve.err" >&2
        failures=$((failures + 1))
        cleanup
        return
    fi

    echo
    echo "== $label (commit linger $linger ms) =="
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min; this script's own runs count too)"
    # Ramp (up to 30 s), live timeout, warm-up, measured, drain and close, with room to spare: a stuck run fails.
    local limit=$((30 + 60 + warmup + duration + 10 + 20 + 60))
    local command=(timeout --kill-after=10 "$limit" "$bench" load --server "http://127.0.0.1:$port" \
        --server-pid "$server_pid" --duration "$duration" --warmup "$warmup" "${json[@]}" "$@")
    echo "command: inkwell-bench load --server http://127.0.0.1:PORT --server-pid PID --duration $duration --warmup $warmup $*"
    local started_ticks started_at status=0
    started_ticks="$(cpu_ticks "$server_pid")"
    started_at="$(date +%s.%N)"
    "${command[@]}" || status=$?
    local ended_ticks ended_at peak
    ended_ticks="$(cpu_ticks "$server_pid")"
    ended_at="$(date +%s.%N)"
    peak="$(awk '/^VmHWM:/ { print $2 }' "/proc/$server_pid/status")"
    awk -v t0="$started_ticks" -v t1="$ended_ticks" -v s0="$started_at" -v s1="$ended_at" -v hz="$ticks" \
        -v peak="$peak" 'BEGIN {
            printf "server over the whole load run (%.0f s: ramp, warm-up, measured, drain): CPU %.0f %% of one core, peak RSS %.0f MiB\n",
                s1 - s0, (t1 - t0) / hz / (s1 - s0) * 100, peak / 1024
        }'
    server_push_to_ack "$port"
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    if grep -qiE "error|critical" "$workdir/serve.err"; then
        echo "server errors (first 5):"
        grep -iE "error|critical" "$workdir/serve.err" | head -5
    fi
    if ! stop_server "$server_pid"; then
        echo "load.sh: the server did not exit cleanly after SIGTERM" >&2
        status=1
    fi
    server_pid=""
    rm -rf "$workdir"
    workdir=""
    if ((status != 0)); then
        echo "load.sh: $label failed (exit $status)" >&2
        failures=$((failures + 1))
    fi
}

if ((main)); then
    run_scenario "100 rooms × 10 members, all drawing" 0 --rooms 100 --members 10
    run_scenario "1 room × 1,000 members, 50 drawing" 0 --rooms 1 --members 1000 --drawers 50
    run_scenario "100 rooms × 10 members, all drawing, beside 10,000 idle connections" 0 \
        --rooms 100 --members 10 --idle-rooms 1000 --ramp 10
fi
if ((sweep)); then
    saved_duration="$duration"
    duration="$sweep_duration"
    for linger in 0 2 5; do
        run_scenario "100 rooms × 10 members, all drawing" "$linger" --rooms 100 --members 10
    done
    for linger in 0 2 5; do
        run_scenario "100 rooms × 10 members, all drawing, presence once a second" "$linger" \
            --rooms 100 --members 10 --presence-interval-ms 1000
    done
    duration="$saved_duration"
fi

if ((failures > 0)); then
    echo "load.sh: $failures scenario(s) failed" >&2
    exit 1
fi
