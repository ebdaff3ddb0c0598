import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandJournalConformance {
    static var retryChecks: [Check] {
        [
            aQueuedCommandIsRetriedWithBackoff, aCommandFailsForGoodOnceItsAttemptsAreSpent,
            errorsThePolicyRefusesFailAtOnce, aCommandThatThrowsRetryAfterRunsAgainLater,
            withoutAPolicyAQueuedCommandFailsAfterOneAttempt, aTransactionRetriesAStepUnderItsPolicy,
            attemptsAreLoggedUnderTheRootsLeaseOnly,
        ]
    }

    /// A worker on queue "q" of `journal` whose registry retries the effects under `policy`.
    static func retryingWorker(
        _ journal: any CommandJournalManagement, _ clock: ManualClock, _ effects: ConformanceEffects,
        _ policy: RetryPolicy?
    ) -> QueueWorker {
        var registry = effects.registry
        if let policy { registry.setRetryPolicy(policy, forKind: "test.effect") }
        let invoker = JournaledInvoker(journal: journal, registry: registry, owner: "retrier", clock: clock)
        return QueueWorker(CommandQueue("q", journal: journal), invoker: invoker)
    }

    /// New effects, and a `retryingWorker` of them under `policy` that ran once, the effect
    /// `name` enqueued on "q" to run now.
    static func runEnqueued(
        _ name: String, _ journal: any CommandJournalManagement, _ clock: ManualClock, _ policy: RetryPolicy?
    ) async throws -> (ConformanceEffects, QueueWorker) {
        let effects = ConformanceEffects()
        let worker = retryingWorker(journal, clock, effects, policy)
        _ = try await journal.enqueue(effects.entry(name), queue: "q", after: .zero)
        try await worker.runDue()
        return (effects, worker)
    }

    static func attemptErrors(_ journal: any CommandJournalManagement, _ key: String) async throws -> [String] {
        try await journal.details(forKey: key)?.attempts.map { "\($0.number): \($0.error ?? "ok")" } ?? []
    }

    static func aQueuedCommandIsRetriedWithBackoff(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a queued command that fails is retried after its policy's backoff, each attempt written down"
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)
        let start = clock.currentDate
        let (effects, worker) = try await runEnqueued("~2flaky", journal, clock, policy)
        let first = try await journal.details(forKey: "~2flaky")
        try expect(
            first?.record.status == .pending && first?.dueAt == start.addingTimeInterval(1), check,
            "after the first failure: \(String(describing: first))")
        let early = try await worker.runDue()
        await clock.advance(by: .seconds(1))
        try await worker.runDue()
        let second = try await journal.details(forKey: "~2flaky")
        try expect(
            early == 0 && second?.dueAt == start.addingTimeInterval(3), check,
            "before it was due \(early) ran; after the second failure: \(String(describing: second))")
        await clock.advance(by: .seconds(2))
        try await worker.runDue()
        let record = try await journal.record(forKey: "~2flaky")
        let errors = try await attemptErrors(journal, "~2flaky")
        try expect(
            record?.status == .done && effects.log == ["+flaky"]
                && errors == ["1: effect ~2flaky fails", "2: effect ~2flaky fails", "3: ok"], check,
            "status \(String(describing: record?.status)), effects \(effects.log), attempts \(errors)")
        let statistics = worker.statistics
        try expect(
            statistics.retried == 2 && statistics.done == 1 && statistics.failed == 0, check, "\(statistics)")
    }

    static func aCommandFailsForGoodOnceItsAttemptsAreSpent(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a command fails for good once its policy's attempts are spent"
        let (_, worker) = try await runEnqueued(
            "~9stubborn", journal, clock, RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1)))
        await clock.advance(by: .seconds(1))
        try await worker.runDue()
        let record = try await journal.record(forKey: "~9stubborn")
        let errors = try await attemptErrors(journal, "~9stubborn")
        try expect(
            record?.status == .failed && errors == ["1: effect ~9stubborn fails", "2: effect ~9stubborn fails"], check,
            "status \(String(describing: record?.status)), attempts \(errors)")
        try expect(worker.statistics.failed == 1 && worker.statistics.retried == 1, check, "\(worker.statistics)")
    }

    static func errorsThePolicyRefusesFailAtOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "an error the policy does not retry fails the record at once"
        let policy = RetryPolicy(maxAttempts: 5) { error in !"\(error)".contains("!") }
        let (_, worker) = try await runEnqueued("!fatal", journal, clock, policy)
        let record = try await journal.record(forKey: "!fatal")
        try expect(
            record?.status == .failed && record?.attempts == 1 && worker.statistics.retried == 0, check,
            "the record is \(String(describing: record)); \(worker.statistics)")
    }

    static func aCommandThatThrowsRetryAfterRunsAgainLater(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a command that throws RetryAfter runs again after its delay, whatever the policy"
        let start = clock.currentDate
        let (effects, worker) = try await runEnqueued("@polite", journal, clock, nil)
        let waiting = try await journal.details(forKey: "@polite")
        try expect(
            waiting?.dueAt == start.addingTimeInterval(5)
                && waiting?.attempts.first?.error == "\(RetryAfter(.seconds(5), reason: "not yet"))", check,
            "after RetryAfter: \(String(describing: waiting))")
        await clock.advance(by: .seconds(5))
        try await worker.runDue()
        let record = try await journal.record(forKey: "@polite")
        try expect(
            record?.status == .done && effects.log == ["+polite"], check,
            "status \(String(describing: record?.status)), effects \(effects.log)")
    }

    static func withoutAPolicyAQueuedCommandFailsAfterOneAttempt(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "without a retry policy, a queued command that throws fails after one attempt"
        let (_, worker) = try await runEnqueued("~1once", journal, clock, nil)
        let record = try await journal.record(forKey: "~1once")
        try expect(
            record?.status == .failed && record?.failureReason == "effect ~1once fails"
                && worker.statistics.failed == 1, check,
            "the record is \(String(describing: record)); \(worker.statistics)")
    }

    static func aTransactionRetriesAStepUnderItsPolicy(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a durable transaction tries a failing step again under the step's policy"
        let (effects, invoker) = invoking(journal, clock)
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .zero, jitter: 0)
        let steps = [try effects.step("x"), try effects.step("~2y").retrying(policy)]
        try await invoker.transaction("order", key: "t", steps: steps).run()
        let statuses = try await statuses(journal, ["t", "t/0", "t/1"])
        let attempts = try await attemptErrors(journal, "t/1")
        try expect(
            statuses == "done done done" && effects.log == ["+x", "+y"]
                && attempts == ["1: effect ~2y fails", "2: effect ~2y fails", "3: ok"], check,
            "statuses \(statuses), effects \(effects.log), the step's attempts \(attempts)")
    }

    static func attemptsAreLoggedUnderTheRootsLeaseOnly(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "logAttempt(_:of:parentKey:lease:) writes an attempt down under the root's lease only"
        let root = try await journal.begin(entry("t"), lease: lease).record
        let failed = CommandJournalAttempt(number: 1, owner: lease.owner, error: "busy")
        try await journal.logAttempt(failed, of: "t/0", parentKey: "t", lease: lease.fenced(by: root))
        try await journal.logAttempt(
            CommandJournalAttempt(number: 2, error: "stale"), of: "t/0", parentKey: "t", lease: other)
        try await journal.settle(
            [.settle(child("t", 0), as: .done(output: nil)), .settle("t", as: .done(output: nil))],
            lease: lease.fenced(by: root))
        let attempts = try await journal.details(forKey: "t/0")?.attempts
        try expect(
            attempts
                == [
                    CommandJournalAttempt(number: 1, owner: lease.owner, error: "busy", endedAt: clock.currentDate),
                    CommandJournalAttempt(number: 2, endedAt: clock.currentDate),
                ], check, "the step's attempts: \(String(describing: attempts))")
        await clock.advance(by: .seconds(1))
        _ = try await journal.prune(settledBefore: clock.currentDate)
        let again = try await journal.begin(entry("t"), lease: lease).record
        try await journal.settle([.settle(child("t", 0), as: .done(output: nil))], lease: lease.fenced(by: again))
        let fresh = try await journal.details(forKey: "t/0")?.attempts
        try expect(fresh == [], check, "a pruned key written again shows the old attempts \(String(describing: fresh))")
    }
}
