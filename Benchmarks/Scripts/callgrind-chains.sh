#!/usr/bin/env bash
# Instructions per lookup of the Chains cache benchmarks under `valgrind --tool=callgrind`: counts that do not
# depend on the machine's load. As callgrind-statemachines.sh, this builds a small harness (in a temporary
# folder, with `-c release`) from the fixtures of Benchmarks/ChainsBenchmarks (10,000 entries, the same
# pseudo-random keys), and counts each benchmark at two lengths: the difference, divided by the lookups between
# them, leaves out start-up and the cache's filling.
#
#     Benchmarks/Scripts/callgrind-chains.sh [path to the BehaviorKit checkout, default ../..]
#
# With CALLGRIND_WORK=DIR the harness is built in DIR and kept, so that a second run does not build it again.
#
# Prints one line per benchmark: its name and the instructions per lookup.
#   MemoryCache.hit        a hit among 10,000 entries
#   MemoryCache.hit.floor  the same read of a dictionary under a Mutex
#   TieredLookup.hit       a lookup over [memory, source] answered by the memory cache
#   TieredLookup.miss      a lookup over [memory (100 entries), source] that misses the memory cache (keys in a
#                          cycle of 1,000): single-flight, the source, the write-back and its eviction
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "${1:-$here/..}" && pwd)"
work="${CALLGRIND_WORK:-$(mktemp -d)}"
[ -n "${CALLGRIND_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/harness"
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "harness",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "BehaviorKit", path: "$root")],
    targets: [
        .executableTarget(name: "harness", dependencies: [.product(name: "Chains", package: "BehaviorKit")])
    ]
)
EOF
if [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" "$work/Package.resolved"; fi
cat > "$work/Sources/harness/main.swift" <<'EOF'
import Chains
import Dispatch
import Synchronization

@inline(never) @_optimize(none) func blackHole<T>(_ value: T) {}
@inline(never) @_optimize(none) func opaque<T>(_ value: T) -> T { value }

/// Keys in 0..<count in a fixed pseudo-random order, `1 << 16` of them (as the benchmarks' fixture).
func randomKeys(below count: Int) -> [Int] {
    var state: UInt64 = 0x5EED
    return (0..<(1 << 16)).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(count))
    }
}

let name = CommandLine.arguments[1]
let lookups = Int(CommandLine.arguments[2]) ?? 1
let entries = 10_000
let keys = opaque(randomKeys(below: entries))
let keyMask = keys.count - 1

@inline(never) func memoryHit(_ lookups: Int) {
    let memory = MemoryCache<Int, Int>(countLimit: entries)
    for key in 0..<entries { memory.setValue(key, forKey: key) }
    var sum = 0
    for index in 0..<lookups { sum &+= memory.value(forKey: keys[index & keyMask]) ?? 0 }
    blackHole(sum)
}

@inline(never) func memoryHitFloor(_ lookups: Int) {
    let floor = Mutex<[Int: Int]>([:])
    floor.withLock { for key in 0..<entries { $0[key] = key } }
    var sum = 0
    for index in 0..<lookups { sum &+= floor.withLock { $0[keys[index & keyMask]] } ?? 0 }
    blackHole(sum)
}

@inline(never) func tieredHit(_ lookups: Int) async {
    let memory = MemoryCache<Int, Int>(countLimit: entries)
    for key in 0..<entries { memory.setValue(key, forKey: key) }
    let lookup = TieredLookup<Int, Int>([memory, LookupSource(name: "source") { $0 }])
    var sum = 0
    for index in 0..<lookups { sum &+= (try? await lookup.value(for: keys[index & keyMask])) ?? 0 }
    blackHole(sum)
}

@inline(never) func tieredMiss(_ lookups: Int) async {
    let lookup = TieredLookup<Int, Int>([MemoryCache(countLimit: 100), LookupSource(name: "source") { $0 }])
    var sum = 0
    for index in 0..<lookups { sum &+= (try? await lookup.value(for: index % 1_000)) ?? 0 }
    blackHole(sum)
}

/// Runs `body` on the cooperative pool while the main thread waits (valgrind crashes in the main thread's
/// executor of an asynchronous `main`).
func wait(for body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

switch name {
case "MemoryCache.hit": memoryHit(lookups)
case "MemoryCache.hit.floor": memoryHitFloor(lookups)
case "TieredLookup.hit": wait { await tieredHit(lookups) }
case "TieredLookup.miss": wait { await tieredMiss(lookups) }
default: print("unknown benchmark \(name)")
}
EOF
if ! (cd "$work" && swift build -c release >"$work/build.log" 2>&1); then
    cat "$work/build.log" >&2
    exit 1
fi
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/.build/release/harness" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
measure() {  # name, short, long
    local short long
    short=$(count "$1" "$2")
    long=$(count "$1" "$3")
    awk -v n="$1" -v a="$short" -v b="$long" -v d="$(( $3 - $2 ))" 'BEGIN { printf "%-34s %10.1f\n", n, (b - a) / d }'
}
measure MemoryCache.hit 10000 110000
measure MemoryCache.hit.floor 10000 110000
measure TieredLookup.hit 10000 110000
measure TieredLookup.miss 1000 11000
