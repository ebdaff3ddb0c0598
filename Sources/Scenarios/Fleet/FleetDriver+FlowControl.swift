import Commands

extension Fleet {
    /// Pauses `queue` fleet-wide for `duration`, then resumes it; returns the window from the
    /// pause's commit to the resume's call, in milliseconds since 1970. A pause or resume that
    /// failed (the database restarting) is tried again.
    static func pauseQueue(_ queue: CommandQueue, for duration: Duration) async throws -> ClosedRange<Int64> {
        try await persisting { try await queue.pause() }
        let paused = FleetLedger.now()
        try await Task.sleep(for: duration)
        let resumed = FleetLedger.now()
        try await persisting { try await queue.resume() }
        return paused...resumed
    }

    /// Removes `schedules` once a minute's tick fell between their saving and now, with
    /// ``FleetFlowChecks/tickSettling`` to spare; returns their life, in milliseconds since 1970.
    static func removeSchedules(
        _ schedules: [QueueSchedule], savedAt saved: Int64, _ journal: any CommandJournalManagement
    ) async throws -> ClosedRange<Int64> {
        guard !schedules.isEmpty else { return saved...saved }
        let minute: Int64 = 60_000
        let firstTick = (saved + 1_000 + minute - 1) / minute * minute
        let wait = firstTick + FleetFlowChecks.tickSettling + 1_000 - FleetLedger.now()
        if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
        for schedule in schedules {
            _ = try await persisting { try await journal.removeSchedule(named: schedule.name) }
        }
        return saved...FleetLedger.now()
    }

    /// Checks the flow control's promises into `report` and `violations`: no customer ran more
    /// orders at once than its limit, no window began more than the rate allows, nothing began
    /// while the queue was paused, every tick ran.
    static func checkFlow(
        _ flow: FleetFlowControl, _ journal: any CommandJournalManagement, _ ledger: FleetLedger,
        pauses: [String: [Int64]], queuePauses: [ClosedRange<Int64>], schedules: [QueueSchedule],
        life: ClosedRange<Int64>, into report: inout FleetReport, _ violations: inout [String]
    ) async throws {
        guard flow.partitions > 0 || flow.startsPerSecond > 0 || !queuePauses.isEmpty || !schedules.isEmpty else {
            return
        }
        let world = try ledger.contents()
        let (busiest, tooFast) = FleetFlowChecks.rateExceeded(
            world.executions, startsPerSecond: flow.startsPerSecond, pauses: pauses)
        report.busiestFiveSeconds = busiest
        violations += tooFast
        let (peak, overlaps) = FleetFlowChecks.partitionOverlaps(world.executions, flow, pauses: pauses)
        report.partitionPeak = peak
        violations += overlaps
        violations += FleetFlowChecks.claimsWhilePaused(world.executions, windows: queuePauses, pauses: pauses)
        report.queuePauses = queuePauses.count
        guard !schedules.isEmpty else { return }
        let (ticks, missed) = FleetFlowChecks.ticks(
            try await journal.allRecords(), effects: world.effects, schedules: schedules, life: life)
        report.ticks = ticks
        violations += missed
    }

    /// `body`, tried again while it throws, every 250 ms for 10 s at most (a database restart
    /// of the fleet's faults), by the one ``RetryPolicy``.
    static func persisting<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let policy = RetryPolicy(maxAttempts: 40, initialDelay: .milliseconds(250), multiplier: 1, jitter: 0)
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                guard let delay = policy.delay(after: attempt, of: "fleet", failedWith: error) else { throw error }
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }
}
