#!/usr/bin/env bash
# The job queue side by side with PgQueuer 1.6.0 (installed from PyPI into .venv-peers) on one
# throwaway PostgreSQL server (fsync on), a fresh database for each run, ours then the peer's, ROUNDS
# times; SQLite beside them (ours only). The workloads are those of ../shared/peers/pgqueuer_queue.py:
#
#   enqueue, one at a time: 2,000 jobs from one caller; p50 per call and jobs/s
#   enqueue, 64 callers: JOBS jobs
#   enqueue in bulk: JOBS jobs, 1,000 a call (ours: enqueue(contentsOf:))
#   drain: JOBS jobs enqueued beforehand, then W worker processes (1, 4 and 16) start at one wall-clock
#          instant; jobs/s = JOBS / (last job's end - start). Ours: QueueWorker.run(), 16 slots
#          (the peer: batch 16)
#   pickup: one worker waits, a producer enqueues 500 stamped jobs at 100 a second; enqueue → start
#          p50/p99. Ours at the default 1 s poll and at a 50 ms poll.
#   SQLite: ours (64 callers, then a drain by 1 and 4 processes) beside the queue a team would write
#          by hand on SQLite (SQLiteQueueFloor: one table, 16 a claim, no leases), the floor; and ours'
#          pickup at 100 jobs a second from another process (woken by the journal's watch of the file,
#          PRAGMA data_version every 5 ms) and within the worker's process (woken at once).
#
# Build first: (cd Benchmarks && swift build -c release --product DurableQueue)
#
#     Benchmarks/Scripts/queue-side-by-side.sh [JOBS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=${1:-10000}
rounds=${2:-3}
ours=Benchmarks/.build/release/DurableQueue
peer=../shared/peers/pgqueuer_queue.py
venv=.venv-peers
[ -x "$ours" ] || { echo "build first: (cd Benchmarks && swift build -c release --product DurableQueue)" >&2; exit 1; }
[ -f "$peer" ] || { echo "no $peer" >&2; exit 1; }
if ! "$venv/bin/python" -c "import pgqueuer, asyncpg" 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q pgqueuer==1.6.0 asyncpg
fi
pgbin=$(Scripts/postgres-cluster.sh bin)
pg=$(mktemp -d /tmp/pg-XXXXXX)
Scripts/postgres-cluster.sh start "$pg" first >/dev/null
trap 'Scripts/postgres-cluster.sh stop "$pg"' EXIT
sqlite_dir=$(mktemp -d)
# A new database's name (called in $(…), so no counter: a subshell's would not last).
fresh() {
    local name
    name="q$(date +%s%N)"
    "$pgbin/createdb" -h "$pg" -U postgres "$name"
    echo "$name"
}
url() { echo "postgres://postgres@localhost/$1?host=$pg"; }
dsn() { echo "postgresql://postgres@/$1?host=$pg"; }
peerdb() {
    local db
    db=$(fresh)
    "$venv/bin/pgq" --pg-dsn "$(dsn "$db")" install >/dev/null
    echo "$db"
}
work_ours() { "$ours" work "$1" "$2" 16 1000; }
work_peer() { "$venv/bin/python" "$peer" work "$1" "$2" 16; }
# jobs/s of a drain: JOBS over (the last job's end - START), from the workers' lines.
rate() { awk -v n="$jobs" -v s="$1" '{ for (i = 1; i <= NF; i++) if ($i ~ /^lastjob=/) { split($i, a, "="); if (a[2] > m) m = a[2] } } END { printf "%.0f jobs/s\n", n / (m - s) }'; }
drain() { # drain NAME WORKERS COMMAND... : each worker is COMMAND START
    local name=$1 workers=$2
    shift 2
    local start out
    start=$(python3 -c "import time; print(f'{time.time() + 3:.3f}')")
    out=$(for _ in $(seq "$workers"); do "$@" "$start" & done; wait)
    printf '%s drain, %d workers: %s' "$name" "$workers" "$(echo "$out" | rate "$start")"
    echo
}
pickup() { # pickup NAME PRODUCE_COMMAND -- WORKER_COMMAND...
    local name=$1 produce=$2
    shift 3
    "$@" >"$sqlite_dir/latency.txt" &
    local worker=$!
    sleep 2
    $produce >/dev/null
    wait "$worker"
    echo "$name: $(cat "$sqlite_dir/latency.txt")"
}

for round in $(seq "$rounds"); do
    echo "== round $round (PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}'), fsync on; $jobs jobs)"
    "$ours" enqueue "$(url "$(fresh)")" 2000 1
    "$venv/bin/python" "$peer" enqueue "$(dsn "$(peerdb)")" 2000 1
    "$ours" enqueue "$(url "$(fresh)")" "$jobs" 64
    "$venv/bin/python" "$peer" enqueue "$(dsn "$(peerdb)")" "$jobs" 64
    "$ours" enqueue "$(url "$(fresh)")" "$jobs" bulk
    "$venv/bin/python" "$peer" enqueue "$(dsn "$(peerdb)")" "$jobs" bulk
    for workers in 1 4 16; do
        db=$(fresh)
        "$ours" enqueue "$(url "$db")" "$jobs" 64 >/dev/null
        drain "behaviorkit run()" "$workers" work_ours "$(url "$db")"
        db=$(peerdb)
        "$venv/bin/python" "$peer" enqueue "$(dsn "$db")" "$jobs" bulk >/dev/null
        drain "pgqueuer" "$workers" work_peer "$(dsn "$db")"
    done
    for poll in 1000 50; do
        db=$(url "$(fresh)")
        pickup "behaviorkit pickup, ${poll} ms poll" "$ours produce $db 100 500" -- "$ours" latency "$db" 500 16 "$poll"
    done
    db=$(dsn "$(peerdb)")
    pickup "pgqueuer pickup" "$venv/bin/python $peer produce $db 100 500" -- "$venv/bin/python" "$peer" latency "$db" 500 16
    for workers in 1 4; do
        file="sqlite://$sqlite_dir/queue-$round-$workers.sqlite"
        "$ours" enqueue "$file" "$jobs" 64 | sed 's/^/sqlite: /'
        drain "sqlite: behaviorkit run()" "$workers" work_ours "$file"
        floor="$sqlite_dir/floor-$round-$workers.sqlite"
        "$ours" floor-enqueue "$floor" "$jobs" | sed 's/^/sqlite: /'
        drain "sqlite: hand-written floor" "$workers" "$ours" floor-work "$floor"
    done
    file="sqlite://$sqlite_dir/pickup-$round.sqlite"
    pickup "sqlite: behaviorkit pickup from another process" "$ours produce $file 100 500" -- "$ours" latency "$file" 500 16 1000
    echo "sqlite: behaviorkit pickup within its process: $("$ours" latency-here "sqlite://$sqlite_dir/here-$round.sqlite" 500 16 1000 100)"
done
rm -rf "$sqlite_dir"
