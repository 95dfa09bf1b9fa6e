#!/usr/bin/env bash
# What fan-out through PostgreSQL's NOTIFY costs the pack log's commits, on a throw-away cluster.
#
#   Benchmarks/postgres-notify.sh [--clients 8] [--seconds 10] [--rooms 100] [--rounds 3] [--in /dev/shm]
#
# Each commit is a group commit as a node makes them: 4 pushes of 600 bytes into 4 rooms, each taking
# its room's next position from a `room_head` row updated in the transaction (its row lock, held until
# commit, makes commit order position order). Three ways, run one after another with `pgbench`:
#   plain      the commits alone;
#   per-commit the same with a pg_notify in every write transaction (one listener connected);
#   batched    the commits alone, beside a notifier sending one NOTIFY every 5 ms for each of 3 nodes,
#              outside the write transactions and without waiting for their flush (one listener connected).
# Then the cluster is restarted with wal_level=logical, the other way to learn of commits, and two more:
#   logical    the commits alone, at wal_level=logical;
#   slots      the same while 3 nodes' logical replication slots are streamed (pg_recvlogical, test_decoding).
# Each way that tells of commits also times it: from a NOTIFY's send to its receipt by a listener (which
# reads every 5 ms), and from a commit to its decoding by a slot's reader (p50 and p99 over the round, ms).
# Durable commits as in production: fsync and synchronous_commit on. The ways run in turn, `--rounds`
# times, and the median of each is printed: a shared machine's disk changes its pace from minute to minute.
# `--in /dev/shm` puts the cluster in memory, where an fsync costs nothing and the locks are what is left.
set -euo pipefail

clients=8
seconds=10
rooms=100
rounds=3
parent=/tmp
while [[ $# -gt 0 ]]; do
    case "$1" in
    --clients) clients="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --rooms) rooms="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --in) parent="$2"; shift 2 ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "postgres-notify.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    echo "postgres-notify.sh: PostgreSQL's server binaries are not installed (Scripts/install-packages.sh)" >&2
    exit 2
fi
as_postgres=()
if [[ "$(id -u)" -eq 0 ]]; then as_postgres=(runuser -u postgres --); fi

folder=$(mktemp -d "$parent/inkwell-notify-XXXXXX")
work=$(mktemp -d /tmp/inkwell-notify-scripts-XXXXXX)
chmod 755 "$work"
if [[ "$(id -u)" -eq 0 ]]; then chown postgres "$folder"; fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
readers=()
stop() {
    [[ -n "${listener:-}" ]] && kill "$listener" 2>/dev/null || true
    [[ -n "${notifier:-}" ]] && kill "$notifier" 2>/dev/null || true
    for reader in "${readers[@]}"; do kill "$reader" 2>/dev/null || true; done
    (cd / && "${as_postgres[@]}" "$bin/pg_ctl" stop -D "$folder/data" -m immediate >/dev/null 2>&1) || true
    rm -rf "$folder" "$work"
}
trap stop EXIT
cd /
"${as_postgres[@]}" "$bin/initdb" -D "$folder/data" -U inkwell --auth=trust --no-instructions >/dev/null
start() {
    "${as_postgres[@]}" "$bin/pg_ctl" start -D "$folder/data" -l "$folder/server.log" -w \
        -o "-p $port -c listen_addresses=127.0.0.1 -k $folder -c max_connections=50 $*" >/dev/null
}
start
psql=("$bin/psql" -h 127.0.0.1 -p "$port" -U inkwell -d postgres -X -q -v ON_ERROR_STOP=1)
"${psql[@]}" -A -t -c "SHOW synchronous_commit" | grep -qx on

schema() {
    "${psql[@]}" <<SQL
DROP TABLE IF EXISTS pack, room_head;
CREATE TABLE room_head (room text PRIMARY KEY, head bigint NOT NULL DEFAULT 0, bytes bigint NOT NULL DEFAULT 0);
CREATE TABLE pack (room text NOT NULL, position bigint NOT NULL, pack_id bytea NOT NULL, bytes bytea NOT NULL,
    PRIMARY KEY (room, position), UNIQUE (room, pack_id));
INSERT INTO room_head (room) SELECT 'room-' || i FROM generate_series(1, $rooms) i;
CHECKPOINT;
SQL
}

push() {
    echo "WITH h AS (UPDATE room_head SET head = head + 1, bytes = bytes + 600 WHERE room = 'room-' || :r$1 RETURNING room, head)"
    echo "    INSERT INTO pack SELECT room, head, sha256(random()::text::bytea), convert_to(repeat(md5(random()::text), 19), 'UTF8') FROM h;"
}
# Four rooms in ascending order: commits on several connections take rooms' row locks in one order, or
# they deadlock (as the log's committers must too).
{
    echo "\\set r1 random(1, $((rooms - 3)))"
    for r in 2 3 4; do echo "\\set r$r :r$((r - 1)) + 1"; done
    echo "BEGIN;"
    for r in 1 2 3 4; do push "$r"; done
    echo "COMMIT;"
} >"$work/commit.sql"
sed 's/^COMMIT;$/SELECT pg_notify('"'"'inkwell'"'"', '"'"'room-'"'"' || :r1 || '"'"' 1'"'"');\nCOMMIT;/' \
    "$work/commit.sql" >"$work/commit-notify.sql"
# A NOTIFY's transaction gets an id and a commit record; the notifier need not wait for its flush (the log
# is the truth, a lost notification only delays a read), so it does not.
{
    echo "SET synchronous_commit TO off;"
    echo "SELECT pg_notify('inkwell', 'room-1 1,room-2 2,room-3 3,room-4 4 ' || clock_timestamp());"
} >"$work/notify.sql"
# Reads lines that end in (or hold, after "at ") a PostgreSQL timestamp as they arrive and prints the p50
# and p99 of how long after it each came, in ms: the listener's notifications, the slots' commits.
cat >"$work/latency.py" <<'PY'
import re, sys, time
from datetime import datetime
pattern = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d)")
waits = []
for line in sys.stdin:
    now = time.time()
    found = pattern.search(line)
    if found:
        waits.append((now - datetime.strptime(found.group(1) + "00", "%Y-%m-%d %H:%M:%S.%f%z").timestamp()) * 1000)
waits.sort()
if waits:
    print(f"{waits[len(waits) // 2]:.1f} {waits[min(len(waits) - 1, len(waits) * 99 // 100)]:.1f}")
else:
    print("- -")
PY

rate() { sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1; }
bench() { "$bin/pgbench" -h 127.0.0.1 -p "$port" -U inkwell -n -c "$clients" -j "$clients" -T "$seconds" "$@" postgres; }
listen() { "${psql[@]}" -c "LISTEN inkwell; SELECT pg_sleep($seconds + 30)" >/dev/null 2>&1 & listener=$!; }
# A listener that reads its notifications every 5 ms and times them, into $work/notify-latency. psql
# reads them only between commands, so its figures are up to 5 ms later than a node's, which is woken.
listen_timed() {
    {
        echo "LISTEN inkwell;"
        for _ in $(seq 1 $((seconds * 190))); do echo "SELECT pg_sleep(0.005);"; done
    } | "${psql[@]}" 2>&1 | python3 -u "$work/latency.py" >"$work/notify-latency" &
    listener=$!
}
# Three nodes' slots, each streamed by pg_recvlogical with commit timestamps and timed, into
# $work/slot-latency-N.
stream_slots() {
    readers=()
    for node in 1 2 3; do
        "$bin/pg_recvlogical" -h 127.0.0.1 -p "$port" -U inkwell -d postgres --slot "node$node" \
            --create-slot --if-not-exists -P test_decoding >/dev/null
        "$bin/pg_recvlogical" -h 127.0.0.1 -p "$port" -U inkwell -d postgres --slot "node$node" --start \
            -o include-timestamp=1 -o skip-empty-xacts=1 -f - -F 1 2>/dev/null |
            grep --line-buffered '^COMMIT' | python3 -u "$work/latency.py" >"$work/slot-latency-$node" &
        readers+=($!)
    done
}
drop_slots() {
    # The streams end first, so that their timers read to the end and print.
    pkill -f "pg_recvlogical.*-p $port" 2>/dev/null || true
    for reader in "${readers[@]}"; do wait "$reader" 2>/dev/null || true; done
    sleep 1
    for node in 1 2 3; do
        "$bin/pg_recvlogical" -h 127.0.0.1 -p "$port" -U inkwell -d postgres --slot "node$node" --drop-slot \
            2>/dev/null || true
    done
    readers=()
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
plains=(); per_commits=(); batcheds=(); notify_latencies=(); slot_latencies=()
for ((round = 1; round <= rounds; round++)); do
    schema >/dev/null 2>&1
    plains+=("$(bench -f "$work/commit.sql" | rate)")
    schema >/dev/null 2>&1
    listen
    per_commits+=("$(bench -f "$work/commit-notify.sql" | rate)")
    kill "$listener" 2>/dev/null || true
    schema >/dev/null 2>&1
    listen_timed
    "$bin/pgbench" -h 127.0.0.1 -p "$port" -U inkwell -n -c 3 -j 3 -R 600 -T "$seconds" -f "$work/notify.sql" \
        postgres >/dev/null 2>&1 &
    notifier=$!
    batcheds+=("$(bench -f "$work/commit.sql" | rate)")
    wait "$notifier" 2>/dev/null || true
    notifier=""
    wait "$listener" 2>/dev/null || true
    notify_latencies+=("$(cat "$work/notify-latency")")
    echo "round $round: plain ${plains[-1]}, per-commit ${per_commits[-1]}, batched ${batcheds[-1]} commits/s;" \
        "NOTIFY to receipt p50/p99 ${notify_latencies[-1]} ms" >&2
done

# The other way: logical decoding, which needs wal_level=logical (a restart).
(cd / && "${as_postgres[@]}" "$bin/pg_ctl" stop -D "$folder/data" -m fast >/dev/null)
start -c wal_level=logical -c max_replication_slots=8 -c max_wal_senders=8
logicals=(); slotteds=()
for ((round = 1; round <= rounds; round++)); do
    schema >/dev/null 2>&1
    logicals+=("$(bench -f "$work/commit.sql" | rate)")
    schema >/dev/null 2>&1
    stream_slots
    slotteds+=("$(bench -f "$work/commit.sql" | rate)")
    sleep 1
    drop_slots
    slot_latencies+=("$(cat "$work/slot-latency-1")")
    echo "round $round: logical ${logicals[-1]}, slots ${slotteds[-1]} commits/s;" \
        "commit to decoded p50/p99 ${slot_latencies[-1]} ms" >&2
done
plain=$(printf '%s\n' "${plains[@]}" | median)
per_commit=$(printf '%s\n' "${per_commits[@]}" | median)
batched=$(printf '%s\n' "${batcheds[@]}" | median)
logical=$(printf '%s\n' "${logicals[@]}" | median)
slotted=$(printf '%s\n' "${slotteds[@]}" | median)

echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') in $parent, $clients writers, $rooms rooms, 4 pushes a commit; medians of $rounds rounds of $seconds s"
printf '%-12s %10.0f commits/s\n' plain "$plain" per-commit "$per_commit" batched "$batched" logical "$logical" \
    slots "$slotted"
echo "NOTIFY to receipt, p50/p99 ms per round: ${notify_latencies[*]/ //}"
echo "commit to decoded by a slot's reader, p50/p99 ms per round: ${slot_latencies[*]/ //}"
