import Commands

extension CommandJournalConformance {
    /// A journal that is a ``QueueWakeSource`` wakes a sleeping worker: the worker's poll is on
    /// the manual clock, which never moves here, so only a wake-up can make it claim.
    static func aSleepingWorkerClaimsWhatIsEnqueuedAtOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        guard journal is any QueueWakeSource else { return }
        let check = "a worker asleep until its next poll claims at once what is enqueued (QueueWakeSource)"
        let effects = ConformanceEffects()
        let queue = CommandQueue("wake", journal: journal)
        try await withSleepingWorker(queue, effects, clock, check) {
            for name in ["woken", "woken-again"] {
                try await queue.enqueue(effects.entry(name))
                try await waitUntilLogged(
                    effects, "+\(name)", check, "'\(name)' waited for the poll; effects \(effects.log)")
            }
        }
    }

    /// Runs `body` while a worker of `queue` runs `effects`, polling once an hour of `clock`:
    /// `body` starts once the worker is asleep after a first claim that took nothing. The worker
    /// is stopped after `body` (and waited for, unless `body` threw).
    static func withSleepingWorker(
        _ queue: CommandQueue, _ effects: ConformanceEffects, _ clock: ManualClock, _ check: String,
        _ body: () async throws -> Void
    ) async throws {
        let worker = QueueWorker(
            queue, invoker: JournaledInvoker(journal: queue.journal, registry: effects.registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        defer { run.cancel() }
        try await within(.seconds(30), check, "the worker never went to sleep") {
            await clock.waitForSleepers(count: 1)
            return true
        }
        try await body()
        run.cancel()
        await run.value
    }

    /// Waits until `effects` logged `effect`; fails `check` with `detail` when it has not
    /// within 30 seconds (real time: a bound on a hang).
    static func waitUntilLogged(
        _ effects: ConformanceEffects, _ effect: String, _ check: String, _ detail: @autoclosure () -> String
    ) async throws {
        try await within(.seconds(30), check, detail()) {
            while !effects.log.contains(effect) {
                try await Task.sleep(for: .milliseconds(5))
            }
            return true
        }
    }

    /// Runs `body`; fails `check` with `detail` when it has not answered within `limit` (real
    /// time: a bound on a hang, not a measure of speed).
    static func within(
        _ limit: Duration, _ check: String, _ detail: @autoclosure () -> String,
        _ body: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        try expect(answered, check, detail())
    }
}
