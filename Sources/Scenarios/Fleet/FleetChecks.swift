import Commands

extension Fleet {
    /// Checks every promise: each acknowledged order settled, done with its three effects or
    /// compensated with none; no step ran on two workers at overlapping times; the outputs
    /// reached the shipment and the refund; nothing is pending; the files are sound.
    static func check(
        _ journal: any CommandJournal, _ ledger: FleetLedger, acknowledged: [String], kills: [String: Int64],
        settled: Bool
    ) async throws -> (FleetReport, [String]) {
        var violations: [String] = settled ? [] : ["the orders did not all settle within the time allowed"]
        let records = try await journal.allRecords()
        let byKey = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let world = try ledger.contents()
        var report = FleetReport(kills: kills.count, acknowledged: acknowledged.count)
        for key in acknowledged {
            guard let order = byKey[key] else {
                violations.append("acknowledged \(key) is not in the journal")
                continue
            }
            let steps = (0..<3).map { byKey["\(key)/\($0)"] }
            let effects = (0..<3).filter { world.effects["\(key)/\($0)"] != nil }
            switch order.status {
            case .done:
                report.done += 1
                if steps.contains(where: { $0?.status != .done }) || effects.count != 3 {
                    violations.append(
                        "\(key) is done, steps \(steps.map { $0.map { "\($0.status)" } ?? "-" }), effects \(effects)")
                }
            case .compensated:
                report.compensated += 1
                if steps.contains(where: { $0?.status == .done || $0?.status == .pending }) || !effects.isEmpty {
                    violations.append(
                        "\(key) is compensated, steps \(steps.map { $0.map { "\($0.status)" } ?? "-" }), effects \(effects)"
                    )
                }
            case .pending, .failed:
                violations.append("\(key) is left \(order.status) \(order.failureReason ?? "")")
            }
            if order.attempts > 1 { report.takenOver += 1 }
        }
        let pending = records.filter { $0.status == .pending }.map(\.id)
        if !pending.isEmpty { violations.append("left pending: \(pending.prefix(5))") }
        for (key, payment) in world.refunds where payment != "pay-" + key.prefix(while: { $0 != "/" }) {
            violations.append("the refund of \(key) received '\(payment)'")
        }
        report.refusedStaleWrites = world.executions.count(where: \.refused)
        let (longest, measured) = longestWait(world.executions, kills: kills)
        report.longestWaitMilliseconds = longest
        report.measuredTakeovers = measured
        violations += try await world.soundnessViolations(journal: journal)
        return (report, violations)
    }

    /// Acts on one step by two attempts whose times overlap: executions that ended with their
    /// effect (or their failure) in the ledger. The ledger refuses a stale attempt's act once a
    /// later attempt reached it; an execution cut short (its worker killed, or its work cancelled
    /// when its lease was lost) changed nothing there, since an effect and its end are one write.
    static func overlaps(_ executions: [FleetLedger.LoggedExecution]) -> [String] {
        var found: [String] = []
        let acts = executions.filter { !$0.refused && $0.ended != nil }
        for (key, runs) in Dictionary(grouping: acts, by: \.key) {
            let spans = runs.map { run in
                ("\(run.worker) attempt \(run.attempt)", run.started, run.ended ?? Int64.max)
            }.sorted { $0.1 < $1.1 }
            for (earlier, later) in zip(spans, spans.dropFirst()) where earlier.0 != later.0 && later.1 < earlier.2 {
                found.append("\(key) ran on \(earlier.0) and \(later.0) at overlapping times")
            }
        }
        return found
    }

    /// The longest time from a worker's kill to another worker's first execution on an order the
    /// killed worker had run a step of, and how many takeovers could be measured.
    static func longestWait(_ executions: [FleetLedger.LoggedExecution], kills: [String: Int64]) -> (Int64, Int) {
        var longest: Int64 = 0
        var measured = 0
        for (_, runs) in Dictionary(grouping: executions, by: \.root) {
            let attempts = Dictionary(grouping: runs, by: \.attempt)
            for (attempt, later) in attempts where attempt > 1 {
                guard let earlier = attempts[attempt - 1], let dead = earlier.first?.worker, let killed = kills[dead],
                    let resumed = later.map(\.started).min()
                else { continue }
                measured += 1
                longest = max(longest, resumed - killed)
            }
        }
        return (longest, measured)
    }
}
