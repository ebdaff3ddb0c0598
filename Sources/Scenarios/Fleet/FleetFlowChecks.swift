import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The promises of the queue's flow control, checked from the ledger's executions (times in
/// milliseconds since 1970, on the one machine's clock).
enum FleetFlowChecks {
    /// One attempt at a record, as the ledger saw it: from its first execution's start to its last
    /// execution's end, all inside the attempt's hold of the record (claimed before, settled after).
    struct Attempt: Hashable {
        let root: String, worker: String, token: Int, started: Int64, ended: Int64, refused: Bool
    }

    /// How long before an attempt's first execution its claim may have been taken, at most, for
    /// telling whether a worker's pause (SIGSTOP) fell inside the attempt.
    static let claimLead: Int64 = 5_000

    static func attempts(_ executions: [FleetLedger.LoggedExecution]) -> [Attempt] {
        Dictionary(grouping: executions, by: { "\($0.root)\u{1}\($0.attempt)" }).values.compactMap { runs in
            guard let first = runs.first else { return nil }
            return Attempt(
                root: first.root, worker: first.worker, token: first.attempt,
                started: runs.map(\.started).min() ?? first.started,
                ended: runs.map { $0.ended ?? $0.started }.max() ?? first.started,
                refused: runs.contains(where: \.refused))
        }
    }

    /// Whether `worker` was paused (SIGSTOP) between `from` and `to`: its attempts then may have
    /// outlived their leases, and the limits count live leases only.
    static func paused(_ worker: String, from: Int64, to: Int64, _ pauses: [String: [Int64]]) -> Bool {
        pauses[worker, default: []].contains { $0 >= from && $0 <= to }
    }

    /// More attempts of one customer running at once than `flow.perPartition`. Counted are the
    /// attempts that kept their lease for certain: not refused by the ledger, not taken over later
    /// (a takeover means the lease ended), not paused. Returns the highest count seen (at most
    /// the limit, when kept: the limit was reached when it equals it) and the violations.
    static func partitionOverlaps(
        _ executions: [FleetLedger.LoggedExecution], _ flow: FleetFlowControl, pauses: [String: [Int64]]
    ) -> (peak: Int, violations: [String]) {
        guard flow.partitions > 0 else { return (0, []) }
        let all = attempts(executions)
        let lastToken = Dictionary(all.map { ($0.root, $0.token) }, uniquingKeysWith: max)
        let kept = all.filter { attempt in
            !attempt.refused && lastToken[attempt.root] == attempt.token
                && !paused(attempt.worker, from: attempt.started - claimLead, to: attempt.ended, pauses)
        }
        var peak = 0
        var violations: [String] = []
        let byPartition = Dictionary(grouping: kept) { flow.partition(ofRoot: $0.root) ?? "" }
        for (partition, attempts) in byPartition where !partition.isEmpty {
            // Ends sort before starts at the same millisecond: those need not have overlapped.
            let edges = attempts.flatMap { [($0.started, 1, $0), ($0.ended, -1, $0)] }
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            var running: Set<Attempt> = []
            for (time, change, attempt) in edges {
                if change < 0 {
                    running.remove(attempt)
                    continue
                }
                running.insert(attempt)
                peak = max(peak, running.count)
                if running.count > flow.perPartition {
                    let names = running.map { "\($0.root) on \($0.worker)" }.sorted()
                    violations.append(
                        "\(partition) ran \(running.count) orders at once at \(time) (limit \(flow.perPartition)): \(names)"
                    )
                }
                // An attempt within one millisecond ended with its start: its end sorted first.
                if attempt.ended <= attempt.started { running.remove(attempt) }
            }
        }
        return (peak, violations)
    }

    /// How late after its claim an attempt's first execution may start, at most, for the rate's
    /// check (a claim's time is the database's; an execution's is the ledger's).
    static let claimToStart: Int64 = 2_000

    /// More attempts begun in some `window` than `startsPerSecond` allows: a token bucket with no
    /// burst grants at most one start now and `startsPerSecond` a second after, and an attempt
    /// begins at most ``claimToStart`` after its claim, so a window holds at most
    /// `startsPerSecond × (window + claimToStart) + 1`. Attempts of a worker paused just before
    /// they began are left out (their start is late by the pause). Returns the most attempts
    /// seen in one window and the violations.
    static func rateExceeded(
        _ executions: [FleetLedger.LoggedExecution], startsPerSecond: Int, window: Int64 = 5_000,
        pauses: [String: [Int64]]
    ) -> (peak: Int, violations: [String]) {
        guard startsPerSecond > 0 else { return (0, []) }
        let starts = attempts(executions).filter {
            !paused($0.worker, from: $0.started - claimLead, to: $0.started, pauses)
        }.map(\.started).sorted()
        let allowed = Int64(startsPerSecond) * (window + claimToStart) / 1_000 + 1
        var peak = 0
        var violations: [String] = []
        var first = 0
        for (last, time) in starts.enumerated() {
            while time - starts[first] >= window { first += 1 }
            let count = last - first + 1
            peak = max(peak, count)
            if count > allowed && (violations.last.map { !$0.hasSuffix("at \(starts[first])") } ?? true) {
                violations.append(
                    "\(count) attempts began within \(window) ms at \(starts[first]), more than the rate of "
                        + "\(startsPerSecond) a second allows (\(allowed))")
            }
        }
        return (peak, violations)
    }

    /// Attempts that began while the queue was paused: each window is from a pause's commit to
    /// the resume's call. A claim already under way when the pause committed may still take
    /// records (on PostgreSQL a claim under a rate limit checks the pause, then waits for the
    /// queue's lock, which a slow claim of another worker holds), so an attempt starting within
    /// `margin` of the pause counts as begun before: 2 s, such a wait on a loaded machine (1.1 s
    /// was seen, at a load of 18 on 2 cores). The fleet's pause lasts 4 s: a worker that claims
    /// from a paused queue still shows in the last 2.
    static func claimsWhilePaused(
        _ executions: [FleetLedger.LoggedExecution], windows: [ClosedRange<Int64>], pauses: [String: [Int64]],
        margin: Int64 = 2_000
    ) -> [String] {
        var violations: [String] = []
        for attempt in attempts(executions) {
            for window in windows
            where attempt.started > window.lowerBound + margin && attempt.started < window.upperBound
                && !paused(attempt.worker, from: attempt.started - claimLead, to: attempt.started, pauses)
            {
                violations.append(
                    "\(attempt.root) attempt \(attempt.token) began on \(attempt.worker) at \(attempt.started), "
                        + "while the queue was paused (\(window.lowerBound)–\(window.upperBound))")
            }
        }
        return violations
    }

    /// The schedules' ticks: each minute from a second after the schedules were saved to
    /// ``tickSettling`` before they were removed has one done record per schedule whose effect is in the ledger;
    /// no tick falls outside the schedules' life. Returns how many ticks ran and the violations.
    /// How long after a tick the driver waits before it removes the schedules, and how late a
    /// tick may be enqueued (every scheduler killed or paused, say) and still be required.
    static let tickSettling: Int64 = 15_000

    static func ticks(
        _ records: [CommandJournalRecord], effects: [String: String], schedules: [QueueSchedule],
        life: ClosedRange<Int64>
    ) -> (count: Int, violations: [String]) {
        let ticks = records.filter { $0.entry.kind == FleetTick.kind && $0.entry.parentKey == nil }
        let byKey = Dictionary(ticks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var violations: [String] = []
        var allowed: Set<String> = []
        let minute: Int64 = 60_000
        var tick = (life.lowerBound - minute) / minute * minute
        while tick <= life.upperBound {
            let required = tick >= life.lowerBound + 1_000 && tick <= life.upperBound - tickSettling
            for schedule in schedules {
                let key = schedule.key(forTick: Date(timeIntervalSince1970: Double(tick) / 1_000))
                allowed.insert(key)
                guard required else { continue }
                guard let record = byKey[key] else {
                    violations.append("the tick \(key) never ran")
                    continue
                }
                if record.status != .done || effects[key] == nil {
                    violations.append("the tick \(key) is \(record.status), effect \(effects[key] ?? "none")")
                }
            }
            tick += minute
        }
        for key in byKey.keys.sorted() where !allowed.contains(key) {
            violations.append("the tick \(key) ran outside its schedule's life")
        }
        return (ticks.count, violations)
    }
}
