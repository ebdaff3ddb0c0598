import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The management API's actions: cancel and retry, atomic and fenced.
extension CommandJournalConformance {
    static var actionChecks: [Check] {
        [
            cancellingAWaitingRecordMeansItNeverRuns,
            cancellingARunningTransactionFencesItsAttempt, aCancelledTransactionIsCompensatedByTheNextWorker,
            aReleasedTransactionWhoseStepsBeganIsMarkedNotSettled,
            aTransactionCancelledWhileItRunsStopsBeforeItsNextStep,
            retryingStartsANewAttempt, forkingRunsTheWorkAgainUnderANewKey,
        ]
    }

    static func cancellingAWaitingRecordMeansItNeverRuns(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) settles a waiting (or stopped) record failed, so that it never runs"
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
        let stuck = try await journal.begin(entry("stuck"), lease: lease).record
        await clock.advance(by: .seconds(31))
        let taken = try await journal.cancel("stuck", reason: "worker died")
        try expect(
            taken.status == .failed && taken.attempts == 1 && taken.owner == nil
                && taken.failureReason == "cancelled: worker died", check,
            "a command whose worker stopped was cancelled as \(taken)")
        try await expectError(.leaseLost(key: "stuck", owner: nil), check, "the stopped attempt's settlement") {
            try await journal.settle("stuck", as: .done(output: nil), lease: lease.fenced(by: stuck))
        }
        let attempts = try await journal.details(forKey: "stuck")?.attempts.map {
            "\($0.owner ?? "-") \($0.error ?? "-")"
        }
        try expect(
            attempts == ["conformance-a cancelled: worker died"], check,
            "the cancelled command's attempts: \(String(describing: attempts))")
    }

    static func cancellingARunningTransactionFencesItsAttempt(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) takes a running transaction from its attempt, marks it, and makes it due"
        let attempt = try await beginTransactionWithADoneStep(journal, "t", output: [7])
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
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a cancelled transaction is compensated by the next worker, even under forward recovery"
        let (effects, invoker) = invoking(journal, clock, owner: "recoverer")
        try await crashMidway(journal, invoker, effects, recovery: .complete)
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
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "cancel(_:reason:) marks a transaction no worker holds whose steps began, for a compensation"
        let attempt = try await beginTransactionWithADoneStep(journal, "t", output: nil)
        try await journal.release("t", lease: attempt, after: .seconds(60))
        let cancelled = try await journal.cancel("t", reason: "late")
        let details = try await journal.details(forKey: "t")
        try expect(
            cancelled.status == .pending && cancelled.attempts == 1 && cancelled.leaseExpiresAt == clock.currentDate
                && details?.isCancelled == true, check,
            "the cancelled transaction is \(cancelled); details \(String(describing: details))")
        _ = try await journal.enqueue(transaction("u", payload: [2]), queue: "q", after: .seconds(60))
        let settled = try await journal.cancel("u", reason: "late")
        try expect(
            settled.status == .failed && settled.failureReason == "cancelled: late", check,
            "a queued transaction that never began was cancelled as \(settled)")
    }

    static func aTransactionCancelledWhileItRunsStopsBeforeItsNextStep(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
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

    static func retryingStartsANewAttempt(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
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
        let enqueued = try await journal.enqueue(transaction("t"), queue: "q", after: .zero)
        let held = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        try expect(held.map(\.id) == [enqueued.id], check, "the transaction was not claimed: \(held)")
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
        _ journal: any CommandJournalManagement, _ key: String, _ status: CommandJournalStatus, _ check: String
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
