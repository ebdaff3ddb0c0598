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
        let run = try await sleepingWorker(queue, effects, clock, check)
        defer { run.cancel() }
        for name in ["woken", "woken-again"] {
            try await queue.enqueue(effects.entry(name))
            try await waitUntilLogged(
                effects, "+\(name)", check, "'\(name)' waited for the poll; effects \(effects.log)")
        }
        run.cancel()
        await run.value
    }

    /// A worker of `queue` running `effects`, polling once an hour of `clock`, started and asleep
    /// after a first claim that took nothing.
    static func sleepingWorker(
        _ queue: CommandQueue, _ effects: ConformanceEffects, _ clock: ManualClock, _ check: String
    ) async throws -> Task<Void, Never> {
        let worker = QueueWorker(
            queue, invoker: JournaledInvoker(journal: queue.journal, registry: effects.registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        try await within(.seconds(30), check, "the worker never went to sleep") {
            await clock.waitForSleepers(count: 1)
            return true
        }
        return run
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
