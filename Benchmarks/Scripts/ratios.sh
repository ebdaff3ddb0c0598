#!/usr/bin/env bash
# Prints each benchmark's median against its floor's: `X  X ns  X.floor ns  ratio`.
# Reads the output of `swift package benchmark` (a file, or standard input):
#     swift package --allow-writing-to-package-directory benchmark --target ChainsBenchmarks | tee run.txt
#     Scripts/ratios.sh run.txt
# Benchmarks that time a whole sample of 1,000,000 runs (names starting with "Pipeline." or "AsyncPipeline.") are
# divided down to ns per run; the StateMachines benchmarks that time 1,000 events an iteration (StateMachine.*,
# Statechart.send) to ns per event.
set -euo pipefail
sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "${1:-/dev/stdin}" | awk -F'│' '
    /^[A-Za-z][^ │╒╞├╘]*$/ { name = $1 }
    /Time \(wall clock\)/ {
        gsub(/ /, "", $5); value = $5 + 0
        if (name ~ /^(Async)?Pipeline\./) value = value / 1000000
        if (name ~ /^(StateMachine\.|Statechart\.send)/) value = value / 1000
        median[name] = value; order[++count] = name
    }
    END {
        printf "%-32s %12s %12s %8s\n", "benchmark", "ns", "floor ns", "ratio"
        for (i = 1; i <= count; i++) {
            name = order[i]
            if (name ~ /\.floor$/) continue
            floor = name; sub(/\.peer\..*$/, "", floor); floor = floor ".floor"
            if (floor in median && median[floor] > 0)
                printf "%-32s %12.2f %12.2f %7.2fx\n", name, median[name], median[floor], median[name] / median[floor]
            else
                printf "%-32s %12.2f\n", name, median[name]
        }
    }'
