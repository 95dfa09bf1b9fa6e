#!/usr/bin/env bash
# Several nodes on one PostgreSQL under load, beside one node on SQLite under the same load, in one run:
# builds `inkwell` and `inkwell-bench` in release, makes a throw-away PostgreSQL 15 cluster (initdb in a
# temporary folder, a free port, removed at the end), and runs `inkwell-bench load` with 100 rooms × 10
# members against
#   1. one `inkwell serve` on SQLite (the single-node figures, measured again here to compare like with like),
#   2. one `inkwell serve --postgres` node (what the database costs, without crossing nodes),
#   3. three `inkwell serve --postgres` nodes, each room's members spread over the three, so that two of
#      every three receipts cross from the pusher's node to another (NOTIFY, then a read of the log).
# Each scenario prints the generator's figures (push → receipt by the other members, push → ack, pushes
# acknowledged per second) and the servers' CPU. --rates "1 2 4" also runs scenario 3 at those strokes per
# second per drawer, to find the pushes per second the cluster sustains. Then, --resumes times (5 by
# default), a client's node of three is killed with SIGKILL (`inkwell-bench failover`): how long the client,
# given the three nodes' URLs, takes to be welcomed by another, and a stroke it drew at the kill to reach a
# member on another node. Every process shares this machine's cores: the generator, the nodes and
# PostgreSQL.
#
# Usage: Benchmarks/cluster-load.sh [--duration S] [--warmup S] [--rates "R ..."] [--resumes N] [--json]
#                                   [--scenarios "sqlite postgres cluster"] [--drawers N] [--skip-build]
# --scenarios picks which of the three load scenarios run (all by default); --rates and --resumes still apply.
# --drawers N has N members of each room draw (all 10 by default), the others watching.
# Environment: INKWELL_SCRATCH, the build folder (default .build).
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${INKWELL_SCRATCH:-.build}"
duration=20
warmup=5
rates=""
resumes=5
scenarios="sqlite postgres cluster"
drawers=()
json=()
build=1
while (($#)); do
    case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --resumes) resumes="$2"; shift 2 ;;
    --json) json=(--json); shift ;;
    --scenarios) scenarios="$2"; shift 2 ;;
    --drawers) drawers=(--drawers "$2"); shift 2 ;;
    --skip-build) build=0; shift ;;
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster-load.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

if ((build)); then
    swift build -c release --scratch-path "$scratch" --product inkwell
    swift build -c release --scratch-path "$scratch" --product inkwell-bench
fi
binary="$(pwd)/$scratch/release/inkwell"
bench="$(pwd)/$scratch/release/inkwell-bench"
for built in "$binary" "$bench"; do
    [[ -x "$built" ]] || { echo "cluster-load.sh: no $built; build first" >&2; exit 1; }
done
postgres_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[[ -x "$postgres_bin/initdb" ]] || { echo "cluster-load.sh: PostgreSQL is not installed (Scripts/install-packages.sh)" >&2; exit 1; }

ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
echo "machine: $(nproc) cores, $(uname -sr); $("$postgres_bin/postgres" --version)"

workdir="$(mktemp -d)"
chmod 755 "$workdir"
pids=()
as_postgres=()
if [[ "$(id -u)" == 0 ]]; then
    chown postgres "$workdir"
    as_postgres=(runuser -u postgres --)
fi
pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    "${as_postgres[@]}" "$postgres_bin/pg_ctl" stop -D "$workdir/pg" -m immediate >/dev/null 2>&1 || true
    rm -rf "$workdir"
}
trap cleanup EXIT

"${as_postgres[@]}" "$postgres_bin/initdb" -D "$workdir/pg" -U inkwell --auth=trust --no-instructions >/dev/null
"${as_postgres[@]}" "$postgres_bin/pg_ctl" start -D "$workdir/pg" -l "$workdir/pg.log" -w \
    -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $workdir -c max_connections=300" >/dev/null
echo "PostgreSQL on port $pg_port: synchronous_commit $("$postgres_bin/psql" -h 127.0.0.1 -p "$pg_port" -U inkwell -d postgres -XAtc 'SHOW synchronous_commit'), fsync $("$postgres_bin/psql" -h 127.0.0.1 -p "$pg_port" -U inkwell -d postgres -XAtc 'SHOW fsync')"

ticks="$(getconf CLK_TCK)"
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# start_node NAME ARGUMENTS...: starts `inkwell serve`, adds it to pids and sets `port` once it listens.
port=""
start_node() {
    local name="$1"
    shift
    "$binary" serve --port 0 --log-level warning --open-rooms --connections-per-address 100000 "$@" \
        >"$workdir/$name.out" 2>"$workdir/$name.err" &
    pids+=($!)
    port=""
    for _ in $(seq 1 300); do
        port="$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$workdir/$name.out")"
        [[ -n "$port" ]] && break
        sleep 0.1
    done
    [[ -n "$port" ]] || { echo "cluster-load.sh: $name did not start" >&2; cat "$workdir/$name.err" >&2; exit 1; }
}

# histograms PORT: a node's commit time and its own share of a push's latency over the whole run, from
# /metrics: the bucket bounds that hold p50 and p99.
histograms() {
    curl -sf "http://127.0.0.1:$1/metrics" | awk -v port="$1" '
        function report(name, label,    i, q, line, bound) {
            if (totals[name] == 0) return
            line = sprintf("node :%s %s (%d):", port, label, totals[name])
            for (q = 50; q <= 99; q += 49) {
                for (i = 0; i < n[name]; i++) if (counts[name, i] >= q / 100 * totals[name]) break
                bound = bounds[name, i] == "+Inf" ? "> 1000 ms" : sprintf("<= %g ms", bounds[name, i] * 1000)
                line = line sprintf(" p%d %s", q, bound)
            }
            print line
        }
        /^inkwell_(commit|push_to_ack)_seconds_bucket/ {
            name = $0; sub(/_bucket.*/, "", name)
            match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5)
            bounds[name, n[name]] = le; counts[name, n[name]] = $NF; n[name]++
        }
        /^inkwell_(commit|push_to_ack)_seconds_count/ { name = $1; sub(/_count/, "", name); totals[name] = $NF }
        END {
            report("inkwell_commit_seconds", "commit")
            report("inkwell_push_to_ack_seconds", "push to ack")
        }' || echo "node :$1: /metrics not read"
}

stop_nodes() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || echo "cluster-load.sh: node $pid did not exit cleanly" >&2; done
    pids=()
}

# run LABEL STORE NODES LOAD_ARGUMENTS...: STORE is sqlite or postgres.
run() {
    local label="$1" store="$2" nodes="$3"
    shift 3
    sleep 3
    local servers=() data="$workdir/data-$RANDOM"
    local database=""
    if [[ "$store" == postgres ]]; then
        database="bench_$RANDOM$RANDOM"
        "$postgres_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U inkwell "$database"
    fi
    local ports=()
    for node in $(seq 1 "$nodes"); do
        if [[ "$store" == postgres ]]; then
            start_node "node$node" --data "$data" --postgres "postgres://inkwell@127.0.0.1:$pg_port/$database?sslmode=disable"
        else
            start_node "node$node" --data "$data"
        fi
        servers+=(--server "http://127.0.0.1:$port")
        ports+=("$port")
    done
    echo
    echo "== $label =="
    echo "command: inkwell-bench load ${servers[*]//127.0.0.1:[0-9]*/127.0.0.1:PORT} --duration $duration --warmup $warmup ${drawers[*]} $*"
    local before=0 pid
    for pid in "${pids[@]}"; do before=$((before + $(cpu_ticks "$pid"))); done
    local postgres_before
    postgres_before="$(for p in $(pgrep -u postgres -f "postgres" || true); do cpu_ticks "$p" 2>/dev/null || true; done | awk '{ s += $1 } END { print s + 0 }')"
    local started_at status=0
    started_at="$(date +%s.%N)"
    timeout --kill-after=10 $((180 + warmup + duration)) "$bench" load "${servers[@]}" --duration "$duration" \
        --warmup "$warmup" "${drawers[@]}" "${json[@]}" "$@" || status=$?
    local after=0
    for pid in "${pids[@]}"; do after=$((after + $(cpu_ticks "$pid"))); done
    local postgres_after
    postgres_after="$(for p in $(pgrep -u postgres -f "postgres" || true); do cpu_ticks "$p" 2>/dev/null || true; done | awk '{ s += $1 } END { print s + 0 }')"
    awk -v a="$before" -v b="$after" -v p0="$postgres_before" -v p1="$postgres_after" -v s0="$started_at" \
        -v s1="$(date +%s.%N)" -v hz="$ticks" -v store="$store" 'BEGIN {
            line = sprintf("over the whole load run (%.0f s): the nodes %.0f %% of one core", s1 - s0, (b - a) / hz / (s1 - s0) * 100)
            if (store == "postgres") line = line sprintf(", PostgreSQL %.0f %%", (p1 - p0) / hz / (s1 - s0) * 100)
            print line
        }'
    for node_port in "${ports[@]}"; do histograms "$node_port"; done
    if grep -qiE "error|critical" "$workdir"/node*.err; then
        echo "node errors (first 5):"
        grep -hiE "error|critical" "$workdir"/node*.err | head -5
    fi
    stop_nodes
    rm -rf "$data" "$workdir"/node*.out "$workdir"/node*.err
    ((status == 0)) || echo "cluster-load.sh: $label failed (exit $status)" >&2
}

wanted() { [[ " $scenarios " == *" $1 "* ]]; }
drawing="all drawing"
((${#drawers[@]})) && drawing="${drawers[1]} of 10 drawing"
if wanted sqlite; then
    run "one node on SQLite: 100 rooms × 10 members, $drawing" sqlite 1 --rooms 100 --members 10
fi
if wanted postgres; then
    run "one node on PostgreSQL: 100 rooms × 10 members, $drawing" postgres 1 --rooms 100 --members 10
fi
if wanted cluster; then
    run "three nodes on PostgreSQL: 100 rooms × 10 members spread over them, $drawing" postgres 3 \
        --rooms 100 --members 10
fi
for rate in $rates; do
    run "three nodes on PostgreSQL: 100 × 10, $rate strokes a second per drawer" postgres 3 \
        --rooms 100 --members 10 --strokes-per-second "$rate"
done

# A client's node killed: three nodes, the first killed and started again for each run.
if ((resumes > 0)); then
    echo
    echo "== a client's node of three killed with SIGKILL, $resumes times =="
    echo "command: inkwell-bench failover --server NODE1 --server NODE2 --server NODE3 --kill-pid NODE1"
    database="bench_$RANDOM$RANDOM"
    "$postgres_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U inkwell "$database"
    data="$workdir/data-resume"
    url="postgres://inkwell@127.0.0.1:$pg_port/$database?sslmode=disable"
    start_node node2 --data "$data" --postgres "$url"
    second="$port"
    start_node node3 --data "$data" --postgres "$url"
    third="$port"
    for run in $(seq 1 "$resumes"); do
        start_node "node1-$run" --data "$data" --postgres "$url"
        victim="${pids[${#pids[@]} - 1]}"
        "$bench" failover --server "http://127.0.0.1:$port" --server "http://127.0.0.1:$second" \
            --server "http://127.0.0.1:$third" --kill-pid "$victim" | sed "s/^/run $run: /" ||
            echo "cluster-load.sh: failover run $run failed" >&2
        wait "$victim" 2>/dev/null || true
        unset "pids[${#pids[@]}-1]"
        pids=("${pids[@]}")
    done
    stop_nodes
fi
