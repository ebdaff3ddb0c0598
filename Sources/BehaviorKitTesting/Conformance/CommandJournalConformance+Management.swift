import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandJournalConformance {
    static var managementChecks: [Check] {
        [
            listingFiltersAndPages, detailsShowDueTimesLeasesAndAttempts, workersAreListedWithWhatTheyHold,
            queuesCountTheirDepthByState, cancellingAWaitingRecordMeansItNeverRuns,
            cancellingARunningTransactionFencesItsAttempt, aCancelledTransactionIsCompensatedByTheNextWorker,
            aReleasedTransactionWhoseStepsBeganIsMarkedNotSettled,
            aTransactionCancelledWhileItRunsStopsBeforeItsNextStep,
            retryingStartsANewAttempt,
        ]
    }

    static func keys(
        _ journal: any CommandJournal, _ filter: CommandJournalFilter, after cursor: Int64? = nil, limit: Int = 100
    ) async throws -> [String] {
        try await journal.records(matching: filter, after: cursor, limit: limit).records.map(\.id)
    }

    static func listingFiltersAndPages(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "records(matching:) filters by status, queue, kind, key prefix, owner and time, and pages by cursor"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("q-1"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("q-2"), queue: "q", after: .seconds(60))
        _ = try await journal.enqueue(entry("r_1"), queue: "r", after: .zero)
        await clock.advance(by: .seconds(10))
        _ = try await journal.begin(entry("direct-1"), lease: lease)
        _ = try await journal.append(child("direct-1", 0), lease: lease)
        _ = try await journal.begin(entry("direct-2"), lease: other)
        try await journal.settle("direct-2", as: .failed(reason: "no"), lease: other)
        let cases: [(String, CommandJournalFilter, [String])] = [
            ("every root", .init(), ["q-1", "q-2", "r_1", "direct-1", "direct-2"]),
            ("failed ones", .init(statuses: [.failed]), ["direct-2"]),
            ("pending ones", .init(statuses: [.pending], keyPrefix: "direct"), ["direct-1"]),
            ("queue 'q'", .init(queue: "q"), ["q-1", "q-2"]),
            ("kind 'test.r_1'", .init(kind: "test.r_1"), ["r_1"]),
            ("key prefix 'direct'", .init(keyPrefix: "direct"), ["direct-1", "direct-2"]),
            ("key prefix 'q_' (not a pattern)", .init(keyPrefix: "q_"), []),
            ("key prefix with steps", .init(keyPrefix: "direct-1", rootsOnly: false), ["direct-1", "direct-1/0"]),
            ("owner", .init(owner: other.owner), ["direct-2"]),
            ("updated since", .init(updatedSince: start.addingTimeInterval(5)), ["direct-1", "direct-2"]),
            ("updated before", .init(updatedBefore: start.addingTimeInterval(5)), ["q-1", "q-2", "r_1"]),
        ]
        for (name, filter, expected) in cases {
            let found = try await keys(journal, filter)
            try expect(found == expected, check, "\(name) lists \(found), expected \(expected)")
        }
        var pages: [[String]] = []
        var cursor: Int64?
        repeat {
            let page = try await journal.records(matching: .init(), after: cursor, limit: 2)
            pages.append(page.records.map(\.id))
            cursor = page.nextCursor
            try expect(pages.count < 5, check, "paging does not end: \(pages)")
        } while cursor != nil
        try expect(
            pages == [["q-1", "q-2"], ["r_1", "direct-1"], ["direct-2"]], check, "pages of 2 are \(pages)")
    }

    static func detailsShowDueTimesLeasesAndAttempts(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "details(forKey:) shows the due time, the lease, and every attempt with its error"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("job"), queue: "q", after: .seconds(5))
        let waiting = try await journal.details(forKey: "job")
        try expect(
            waiting?.dueAt == start.addingTimeInterval(5) && waiting?.leaseExpiresAt == nil
                && waiting?.attempts.isEmpty == true, check,
            "a delayed record's details: \(String(describing: waiting))")
        await clock.advance(by: .seconds(5))
        let claimed = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        let first = try await journal.details(forKey: "job")
        try expect(
            claimed.count == 1 && first?.dueAt == nil && first?.leaseExpiresAt == start.addingTimeInterval(35)
                && first?.attempts == [CommandJournalAttempt(number: 1, owner: lease.owner)], check,
            "a held record's details: \(String(describing: first))")
        try await journal.release("job", lease: lease.fenced(by: claimed[0]), after: .seconds(7), failure: "timeout")
        let released = try await journal.details(forKey: "job")
        try expect(
            released?.dueAt == start.addingTimeInterval(12)
                && released?.attempts
                    == [
                        CommandJournalAttempt(
                            number: 1, owner: lease.owner, error: "timeout", endedAt: start.addingTimeInterval(5))
                    ],
            check, "after a failed attempt was released: \(String(describing: released))")
        await clock.advance(by: .seconds(7))
        let again = try await journal.claim(1, from: "q", concurrency: nil, lease: other).records
        guard let second = again.first else { throw failure(check, "the released record was not claimed again") }
        try await journal.settle("job", as: .failed(reason: "declined"), lease: other.fenced(by: second))
        let attempts = try await journal.details(forKey: "job")?.attempts.map {
            "\($0.number) \($0.owner ?? "-") \($0.error ?? "-")"
        }
        try expect(
            attempts == ["1 conformance-a timeout", "2 conformance-b declined"], check,
            "attempts of a record that failed twice: \(String(describing: attempts))")
        let missing = try await journal.details(forKey: "zzz")
        try expect(missing == nil, check, "details of an unknown key: \(String(describing: missing))")
    }

    static func workersAreListedWithWhatTheyHold(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "workers() lists each owner with the records it holds and its leases"
        let start = clock.currentDate
        _ = try await journal.begin(entry("a"), lease: lease)
        _ = try await journal.begin(entry("b"), lease: lease)
        let c = try await journal.begin(entry("c"), lease: other).record
        _ = try await journal.enqueue(entry("waiting"), queue: "q", after: .zero)
        await clock.advance(by: .seconds(10))
        _ = try await journal.renew(["a": 1], lease: lease)
        let workers = try await journal.workers()
        let expected = [
            CommandJournalWorker(
                owner: lease.owner, holds: ["a", "b"], leaseExpiresAt: start.addingTimeInterval(40),
                earliestLeaseExpiry: start.addingTimeInterval(30)),
            CommandJournalWorker(
                owner: other.owner, holds: ["c"], leaseExpiresAt: start.addingTimeInterval(30),
                earliestLeaseExpiry: start.addingTimeInterval(30)),
        ]
        try expect(workers == expected, check, "workers \(workers)")
        try await journal.settle("c", as: .done(output: nil), lease: other.fenced(by: c))
        let left = try await journal.workers().map(\.owner)
        try expect(left == [lease.owner], check, "after 'c' settled, the workers are \(left)")
    }

    static func queuesCountTheirDepthByState(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "queues() counts each queue's due, delayed, running and stalled records, and its oldest due"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("d1"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("d2"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("later"), queue: "q", after: .seconds(60))
        _ = try await journal.enqueue(entry("r1"), queue: "r", after: .zero)
        _ = try await journal.claim(1, from: "q", concurrency: nil, lease: lease)
        _ = try await journal.begin(entry("direct"), lease: other)
        let now = try await journal.queues()
        let expected = [
            CommandJournalQueueStatistics(name: nil, running: 1),
            CommandJournalQueueStatistics(name: "q", due: 1, delayed: 1, running: 1, oldestDue: start),
            CommandJournalQueueStatistics(name: "r", due: 1, oldestDue: start),
        ]
        try expect(now == expected, check, "queues \(now)")
        await clock.advance(by: .seconds(31))
        let later = try await journal.queues()
        let stalled = [
            CommandJournalQueueStatistics(name: nil, stalled: 1),
            CommandJournalQueueStatistics(name: "q", due: 1, delayed: 1, stalled: 1, oldestDue: start),
            CommandJournalQueueStatistics(name: "r", due: 1, oldestDue: start),
        ]
        try expect(later == stalled, check, "once the leases expired, queues \(later)")
    }

    static func cancellingAWaitingRecordMeansItNeverRuns(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) settles a waiting record failed, so that it never runs"
        _ = try await journal.enqueue(entry("later"), queue: "q", after: .seconds(60))
        let cancelled = try await journal.cancel("later", reason: "not needed")
        try expect(
            cancelled.status == .failed && cancelled.failureReason == "cancelled: not needed"
                && cancelled.leaseExpiresAt == nil, check, "the cancelled record is \(cancelled)")
        await clock.advance(by: .seconds(61))
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: lease)
        try expect(claimed.records.isEmpty, check, "a claim took the cancelled \(claimed.records.map(\.id))")
        try await expectCannotCancel(journal, "later", .failed, check)
        _ = try await journal.enqueue(entry("now"), queue: "q", after: .zero)
        _ = try await journal.claim(1, from: "q", concurrency: nil, lease: lease)
        try await expectCannotCancel(journal, "now", .pending, check)
        try await expectError(.unknownKey("zzz"), check, "cancelling an unknown key") {
            _ = try await journal.cancel("zzz", reason: "")
        }
    }

    static func cancellingARunningTransactionFencesItsAttempt(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) takes a running transaction from its attempt, marks it, and makes it due"
        let transaction = CommandJournalEntry(
            idempotencyKey: "t", kind: CommandJournalCancellation.transactionKind, payload: [1])
        let begun = try await journal.begin(transaction, lease: lease).record
        let attempt = lease.fenced(by: begun)
        try await journal.settle([.settle(child("t", 0), as: .done(output: [7]))], lease: attempt)
        let cancelled = try await journal.cancel("t", reason: "operator")
        try expect(
            cancelled.status == .pending && cancelled.owner == nil && cancelled.attempts == 2
                && cancelled.leaseExpiresAt == clock.currentDate, check, "the cancelled transaction is \(cancelled)")
        try await expectError(.leaseLost(key: "t", owner: nil), check, "the cancelled attempt's next step") {
            _ = try await journal.append(child("t", 1), lease: attempt)
        }
        try await expectError(.leaseLost(key: "t", owner: nil), check, "the cancelled attempt's settlement") {
            try await journal.settle("t", as: .done(output: nil), lease: attempt)
        }
        let details = try await journal.details(forKey: "t")
        try expect(
            details?.isCancelled == true && details?.compensationReason == "cancelled: operator"
                && details?.steps.map(\.id) == ["t/0"]
                && details?.attempts.first?.error == "cancelled: operator", check,
            "the details of the cancelled transaction: \(String(describing: details))")
        let again = try await journal.cancel("t", reason: "twice")
        try expect(again.attempts == 2, check, "cancelling it again gave \(again)")
        try await expectCannotCancel(journal, "t/0", .done, check)
        let claimed = try await journal.claim(1, from: nil, concurrency: nil, lease: other).records
        try expect(
            claimed.map(\.id) == ["t"] && claimed.first?.attempts == 3, check,
            "the next claim took \(claimed.map { "\($0.id)#\($0.attempts)" })")
    }

    static func aCancelledTransactionIsCompensatedByTheNextWorker(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "a cancelled transaction is compensated by the next worker, even under forward recovery"
        let effects = ConformanceEffects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry, owner: "recoverer", clock: clock)
        let order = invoker.transaction(
            "order", key: "t", recovery: .complete, steps: try ["x", "y", "z"].map(effects.step))
        try await crashMidway(order, journal)
        _ = try await journal.cancel("t", reason: "customer asked")
        let report = try await invoker.recover()
        try expect(report.compensatedTransactions == ["t"], check, "recovery at once: \(report)")
        try expect(effects.log == ["-y", "-x(out-x)"], check, "effects \(effects.log)")
        let details = try await journal.details(forKey: "t")
        try expect(
            details?.record.status == .compensated && details?.compensationReason == "cancelled: customer asked", check,
            "the transaction's details: \(String(describing: details))")
    }

    static func aReleasedTransactionWhoseStepsBeganIsMarkedNotSettled(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) marks a transaction no worker holds whose steps began, for a compensation"
        let transaction = CommandJournalEntry(
            idempotencyKey: "t", kind: CommandJournalCancellation.transactionKind, payload: [1])
        let begun = try await journal.begin(transaction, lease: lease).record
        try await journal.settle([.settle(child("t", 0), as: .done(output: nil))], lease: lease.fenced(by: begun))
        try await journal.release("t", lease: lease.fenced(by: begun), after: .seconds(60))
        let cancelled = try await journal.cancel("t", reason: "late")
        let details = try await journal.details(forKey: "t")
        try expect(
            cancelled.status == .pending && cancelled.attempts == 1 && cancelled.leaseExpiresAt == clock.currentDate
                && details?.isCancelled == true, check,
            "the cancelled transaction is \(cancelled); details \(String(describing: details))")
        let untouched = CommandJournalEntry(
            idempotencyKey: "u", kind: CommandJournalCancellation.transactionKind, payload: [2])
        _ = try await journal.enqueue(untouched, queue: "q", after: .seconds(60))
        let settled = try await journal.cancel("u", reason: "late")
        try expect(
            settled.status == .failed && settled.failureReason == "cancelled: late", check,
            "a queued transaction that never began was cancelled as \(settled)")
    }

    static func aTransactionCancelledWhileItRunsStopsBeforeItsNextStep(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "a transaction cancelled while a step runs stops before its next step; the next worker compensates"
        let effects = ConformanceEffects()
        var registry = effects.registry
        registry.register("test.cancelling", arguments: String.self, output: String.self) { name, _ in
            _ = try await journal.cancel("t", reason: "operator")
            return name
        }
        let runner = JournaledInvoker(journal: journal, registry: registry, owner: "runner", clock: clock)
        let steps = [
            try effects.step("x"), try registry.step("test.cancelling", arguments: "c"), try effects.step("y"),
        ]
        do {
            try await runner.transaction("order", key: "t", steps: steps).run()
            throw failure(check, "the cancelled transaction ran to its end")
        } catch let error as CommandJournalError {
            try expect(error == .leaseLost(key: "t", owner: nil), check, "the cancelled run threw \(error)")
        }
        try expect(effects.log == ["+x"], check, "the steps after the cancellation ran: \(effects.log)")
        let recoverer = JournaledInvoker(journal: journal, registry: registry, owner: "recoverer", clock: clock)
        let report = try await recoverer.recover()
        let details = try await journal.details(forKey: "t")
        try expect(
            report.compensatedTransactions == ["t"] && effects.log == ["+x", "-x(out-x)"]
                && details?.compensationReason == "cancelled: operator", check,
            "recovery \(report), effects \(effects.log), details \(String(describing: details))")
    }

    static func retryingStartsANewAttempt(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "retry(_:) makes a failed or compensated record due again, keeping the attempt that ended"
        let failed = try await journal.begin(entry("f"), lease: lease).record
        try await journal.settle("f", as: .failed(reason: "boom"), lease: lease.fenced(by: failed))
        let retried = try await journal.retry("f")
        try expect(
            retried.status == .pending && retried.owner == nil && retried.failureReason == nil
                && retried.leaseExpiresAt == clock.currentDate, check, "the retried record is \(retried)")
        try await expectError(.cannotRetry(key: "f", status: .pending), check, "retrying a pending record") {
            _ = try await journal.retry("f")
        }
        let claimed = try await journal.claim(1, from: nil, concurrency: nil, lease: other).records
        try expect(claimed.map(\.attempts) == [2], check, "the claim after a retry took \(claimed)")
        let attempts = try await journal.details(forKey: "f")?.attempts.map { "\($0.number) \($0.error ?? "-")" }
        try expect(attempts == ["1 boom", "2 -"], check, "attempts after a retry: \(String(describing: attempts))")
        try await journal.settle("f", as: .done(output: nil), lease: other.fenced(by: claimed[0]))
        try await expectError(.cannotRetry(key: "f", status: .done), check, "retrying a done record") {
            _ = try await journal.retry("f")
        }
        try await expectError(.unknownKey("zzz"), check, "retrying an unknown key") {
            _ = try await journal.retry("zzz")
        }
        let transaction = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "t", kind: CommandJournalCancellation.transactionKind), queue: "q",
            after: .zero)
        let held = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        try expect(held.map(\.id) == [transaction.id], check, "the transaction was not claimed: \(held)")
        try await journal.settle(
            [.settle(child("t", 0), as: .compensated), .settle("t", as: .compensated)], lease: lease.fenced(by: held[0])
        )
        _ = try await journal.retry("t")
        let steps = try await journal.records(parentKey: "t")
        let again = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        try expect(
            steps.isEmpty && again.map(\.id) == ["t"], check,
            "a retried transaction kept the steps \(steps.map(\.id)); its queue's claim took \(again.map(\.id))")
    }

    static func expectCannotCancel(
        _ journal: any CommandJournal, _ key: String, _ status: CommandJournalStatus, _ check: String
    ) async throws {
        do {
            _ = try await journal.cancel(key, reason: "")
        } catch CommandJournalError.cannotCancel(let refused, let found, _) where refused == key && found == status {
            return
        } catch {
            throw failure(check, "cancelling '\(key)' (\(status)) threw \(error)")
        }
        throw failure(check, "cancelling '\(key)' (\(status)) was not refused")
    }
}
