public import Commands

/// A job's handle (``JobHandle``): ``JobHandle/result()`` answers the record once the job is
/// done, or throws how it settled otherwise (failed, cancelled) as a ``JobError``, and is woken
/// by the settlement itself. The handle polls once an hour of the manual clock, which never
/// moves here, so only the journal's wake-up (``JobSettlementSource``) can make it answer.
extension CommandJournalConformance {
    /// Runs the checks of jobs' handles, queues' retention, dead letters and bulk actions only (``check(_:)`` runs them with the rest), each on a
    /// new journal from `makeJournal`.
    public static func checkJobs(_ makeJournal: (ManualClock) async throws -> any CommandJournalManagement) async throws
    {
        try await run(jobChecks + retentionChecks + bulkChecks, makeJournal)
    }

    static var jobChecks: [Check] {
        [aJobsHandleIsWokenByItsSettlement, aJobsHandleThrowsHowItFailedOrWasCancelled]
    }

    static func aJobsHandleIsWokenByItsSettlement(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        guard let queue = try await jobsQueue(journal, enqueuing: "job-done") else { return }
        let check = "a job's handle answers its output once the job is done, woken by the settlement"
        let waiting = try await waitingHandle(queue, "job-done", clock, check) { handle in
            try await handle.result(as: Int.self)
        }
        let claimed = try await journal.claim(1, from: "jobs", concurrency: nil, lease: lease)
        try expect(claimed.records.map(\.id) == ["job-done"], check, "claimed \(claimed.records.map(\.id))")
        try await journal.settle(
            "job-done", as: .done(output: Array("42".utf8)), lease: lease.fenced(by: claimed.records[0]))
        try await within(.seconds(30), check, "the handle was not woken by the settlement") {
            _ = await waiting.result
            return true
        }
        let output = try await waiting.value
        try expect(output == 42, check, "the handle answered \(output)")
        do {
            _ = try await queue.job(forKey: "never-enqueued", clock: clock).result()
            throw failure(check, "the handle of a key never enqueued answered")
        } catch let error as JobError {
            try expect(error == .unknownKey("never-enqueued"), check, "an unknown key threw \(error)")
        }
    }

    static func aJobsHandleThrowsHowItFailedOrWasCancelled(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        guard let queue = try await jobsQueue(journal, enqueuing: "job-failed") else { return }
        let check = "a job's handle throws the failure or the cancellation the job settled with"
        let failing = try await waitingHandle(queue, "job-failed", clock, check) { try await $0.result() }
        let claimed = try await journal.claim(1, from: "jobs", concurrency: nil, lease: lease)
        try await journal.settle(
            "job-failed", as: .failed(reason: "card declined"), lease: lease.fenced(by: claimed.records[0]))
        try await expectJobError(failing, .failed(key: "job-failed", reason: "card declined"), check)

        _ = try await queue.enqueue(entry("job-cancelled"), after: .seconds(3_600))
        let cancelled = try await waitingHandle(queue, "job-cancelled", clock, check) { try await $0.result() }
        _ = try await journal.cancel("job-cancelled", reason: "customer asked")
        try await expectJobError(cancelled, .cancelled(key: "job-cancelled", reason: "customer asked"), check)
    }

    /// The queue "jobs" of `journal` with `key` enqueued, or `nil` when the journal does not
    /// wake the handles of its jobs (it is no ``JobSettlementSource``) and enqueues nothing.
    static func jobsQueue(_ journal: any CommandJournalManagement, enqueuing key: String) async throws -> CommandQueue?
    {
        guard journal is any JobSettlementSource else { return nil }
        let queue = CommandQueue("jobs", journal: journal)
        _ = try await queue.enqueue(entry(key))
        return queue
    }

    /// A task waiting on the handle of `key`, which polls once an hour of `clock`: started, and
    /// asleep after a first read that found the job pending.
    static func waitingHandle<T: Sendable>(
        _ queue: CommandQueue, _ key: String, _ clock: ManualClock, _ check: String,
        _ wait: @escaping @Sendable (JobHandle) async throws -> T
    ) async throws -> Task<T, any Error> {
        let sleepers = clock.sleeperCount
        let handle = queue.job(forKey: key, pollInterval: .seconds(3_600), clock: clock)
        let waiting = Task { try await wait(handle) }
        try await within(.seconds(30), check, "the handle of '\(key)' never went to sleep") {
            await clock.waitForSleepers(count: sleepers + 1)
            return true
        }
        return waiting
    }

    /// Fails `check` unless `waiting` throws `expected` within 30 seconds.
    static func expectJobError<T: Sendable>(
        _ waiting: Task<T, any Error>, _ expected: JobError, _ check: String
    ) async throws {
        try await within(.seconds(30), check, "the handle was not woken by the settlement (\(expected))") {
            _ = await waiting.result
            return true
        }
        switch await waiting.result {
        case .success(let value): throw failure(check, "the handle answered \(value), not \(expected)")
        case .failure(let error as JobError): try expect(error == expected, check, "the handle threw \(error)")
        case .failure(let error): throw failure(check, "the handle threw \(error), not \(expected)")
        }
    }
}
