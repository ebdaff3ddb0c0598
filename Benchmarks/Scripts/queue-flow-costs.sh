#!/usr/bin/env bash
# What each flow-control feature costs the queue: JOBS no-op jobs enqueued in bulk, then drained by
# QueueWorker.run() (16 slots) in W worker processes (1 and 4), once per flow (FlowControl in
# DurableQueue: plain, priorities, partitions, concurrency, rate-limit, partition-rate-limit, each
# with limits that never hold a job back), on one throwaway PostgreSQL server (fsync on) and on SQLite,
# a fresh database per drain, ROUNDS times. Each line gives jobs/s and the ratio to `plain` of the
# same round, database and worker count: the price of checking the feature in every claim.
#
# Build first: (cd Benchmarks && swift build -c release --product DurableQueue)
#
#     Benchmarks/Scripts/queue-flow-costs.sh [JOBS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=${1:-10000}
rounds=${2:-2}
ours=Benchmarks/.build/release/DurableQueue
[ -x "$ours" ] || { echo "build first: (cd Benchmarks && swift build -c release --product DurableQueue)" >&2; exit 1; }
pgbin=$(Scripts/postgres-cluster.sh bin)
pg=$(mktemp -d /tmp/pg-XXXXXX)
Scripts/postgres-cluster.sh start "$pg" first >/dev/null
sqlite_dir=$(mktemp -d)
trap 'Scripts/postgres-cluster.sh stop "$pg"; rm -rf "$sqlite_dir"' EXIT
flows="plain priorities partitions concurrency rate-limit partition-rate-limit"

# A fresh database's URL: PostgreSQL (a new database on the server) or SQLite (a new file).
fresh() {
    if [ "$1" = postgres ]; then
        local name
        name="f$(date +%s%N)"
        "$pgbin/createdb" -h "$pg" -U postgres "$name"
        echo "postgres://postgres@localhost/$name?host=$pg"
    else
        echo "sqlite://$sqlite_dir/f$(date +%s%N).sqlite"
    fi
}
# jobs/s of a drain of URL by W processes started at one instant: JOBS over (last job's end - start).
drain() {
    local url=$1 workers=$2 start
    start=$(python3 -c "import time; print(f'{time.time() + 2:.3f}')")
    for _ in $(seq "$workers"); do "$ours" work "$url" "$start" 16 1000 & done | awk -v n="$jobs" -v s="$start" \
        '{ for (i = 1; i <= NF; i++) if ($i ~ /^lastjob=/) { split($i, a, "="); if (a[2] > m) m = a[2] } }
         END { printf "%.0f\n", n / (m - s) }'
}

for round in $(seq "$rounds"); do
    echo "== round $round ($jobs jobs; PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}'), fsync on; SQLite)"
    for database in postgres sqlite; do
        for workers in 1 4; do
            plain=0
            for flow in $flows; do
                url=$(fresh "$database")
                BK_FLOW=$flow "$ours" enqueue "$url" "$jobs" bulk >/dev/null
                rate=$(BK_FLOW=$flow drain "$url" "$workers")
                [ "$flow" = plain ] && plain=$rate
                printf '%-8s %d workers  %-22s %7d jobs/s  %5.2fx plain\n' "$database" "$workers" "$flow" "$rate" \
                    "$(awk -v r="$rate" -v p="$plain" 'BEGIN { print (p > 0 ? r / p : 0) }')"
            done
        done
    done
done
