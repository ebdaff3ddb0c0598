import BehaviorKitSync
public import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks every `CommandJournal` must pass: the in-memory journal here, a SQLite or a
/// PostgreSQL one elsewhere. They cover one record per key, owners and leases (a live owner's
/// work is never taken; expired leases are; fencing by each attempt's token), queues (due times,
/// concurrency, priorities, pauses, rate limits, schedules), step
/// outputs, pruning, the durable layer on top (recovery, settled keys, takeovers), the
/// management API (listing, details with attempts, workers, queues, cancel, retry), retries,
/// and keys kept exactly or refused (`StoredKey`).
///
/// Call it from a test with a function that makes an empty journal on the given clock (the
/// checks move it to expire leases); it throws a ``CommandJournalConformanceFailure`` naming
/// the first rule broken.
///
/// ```swift
/// @Test func sqliteJournalConforms() async throws {
///     try await CommandJournalConformance.check { clock in
///         try SQLiteCommandJournal(path: temporaryFile(), clock: clock)
///     }
/// }
/// ```
public enum CommandJournalConformance {
    /// Runs every check, each on a new journal from `makeJournal`, which must stamp records and
    /// judge leases by the clock it is given.
    public static func check(_ makeJournal: (ManualClock) async throws -> any CommandJournalManagement) async throws {
        try await run(checks, makeJournal)
    }

    /// Runs `checks` in order, each on a new journal from `makeJournal` on a new manual clock.
    static func run(
        _ checks: [Check], _ makeJournal: (ManualClock) async throws -> any CommandJournalManagement
    ) async throws {
        for check in checks {
            let clock = ManualClock()
            try await check(makeJournal(clock), clock)
        }
    }

    typealias Check = @Sendable (any CommandJournalManagement, ManualClock) async throws -> Void

    static var checks: [Check] {
        [
            beginWritesHeldPendingRecordsInOrder, settlingFinishesRecords, beginningAKeyAgainAnswersHowItStands,
            unknownAndConflictingKeysAreRefused, concurrentBeginsAreAllKept, childrenAreWrittenUnderTheirRoot,
            severalSettlementsCommitTogetherOrNotAtAll,
            aLiveLeaseIsNeverTakenOver, aStoppedWorkersRecordsAreTakenAtOnceWhenNamed, renewingKeepsALease,
            aSettledRootChangesNoMore, releasingMakesARecordClaimable, staleAttemptsAreFencedByTheirToken,
            concurrentClaimsNeverShareARecord, enqueuedRecordsWaitUntilDue, queueConcurrencyIsRespected,
            queuesAreSeparate, pruningDeletesOnlyOldSettledRecords, recoveryReplaysAndKeepsUnregistered,
            failingTransactionIsCompensatedInTheJournal, halfDoneTransactionIsCompensatedOnRecovery,
            halfDoneTransactionIsCompletedOnForwardRecovery, theStepInFlightIsCompensatedThoughUnwritten,
            settledKeysAnswerHowTheySettled,
            concurrentRecoveriesSettleEachRecordOnce, stepOutputsReachLaterStepsAndCompensations,
            aQueueWorkerRunsADelayedCommandOnce, keysAreKeptExactlyOrRefused, aSleepingWorkerClaimsWhatIsEnqueuedAtOnce,
            bulkEnqueueKeepsOrderKeysAndDelays, bulkEnqueueRefusesBadKeysBeforeWritingAndReportsConflicts,
            bulkEnqueueAnswersAKeyTwiceInOneCallOnce,
        ] + managementChecks + retryChecks + priorityChecks + pauseChecks + keyLimitChecks + rateLimitChecks
            + scheduleChecks + jobChecks
            + retentionChecks + [
                queuedRecordsKeepTheirCallersTraceContext, aClaimUnderAPartitionLimitKeepsTheTraceContext,
                bulkEnqueuedRecordsKeepTheirCallersTraceContext,
                wakingMakesAWaitingRecordDueAndNoOther, beginningOnAQueueHoldsARecordItsWorkersTakeOnceTheLeaseLapses,
                activityIsCountedPerQueueAndMinute, pickupIsKeptPerQueueAndMinute,
            ]
    }

    static let lease = JournalLease(owner: "conformance-a", duration: .seconds(30))
    static let other = JournalLease(owner: "conformance-b", duration: .seconds(30))

    static func beginWritesHeldPendingRecordsInOrder(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "begin writes pending records in order, held under the lease"
        var sequences: [Int64] = []
        for key in ["a", "b", "c"] {
            guard case .started(let record) = try await journal.begin(entry(key), lease: lease) else {
                throw failure(check, "begin of a new key '\(key)' did not start it")
            }
            try expect(record.status == .pending, check, "record '\(key)' has status \(record.status)")
            try expect(record.entry == entry(key), check, "record '\(key)' holds \(record.entry)")
            try expect(
                record.owner == lease.owner && record.attempts == 1, check,
                "record '\(key)' has owner \(String(describing: record.owner)), attempts \(record.attempts)")
            try expect(
                record.leaseExpiresAt == clock.currentDate.addingTimeInterval(30), check,
                "record '\(key)' has its lease until \(String(describing: record.leaseExpiresAt))")
            sequences.append(record.sequence)
        }
        try expect(sequences == sequences.sorted() && Set(sequences).count == 3, check, "sequences \(sequences)")
        let keys = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(keys == ["a", "b", "c"], check, "unfinished() lists \(keys)")
        let stored = try await journal.record(forKey: "b")
        try expect(stored?.owner == lease.owner, check, "record(forKey:) gives \(String(describing: stored))")
    }

    static func settlingFinishesRecords(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "settle finishes records: done with an output, failed with a reason, compensated"
        for key in ["a", "b", "c", "d"] { _ = try await journal.begin(entry(key), lease: lease) }
        try await journal.settle("a", as: .done(output: [1, 2]), lease: lease)
        try await journal.settle("c", as: .failed(reason: "disk full"), lease: lease)
        try await journal.settle("d", as: .compensated, lease: lease)
        let done = try await journal.record(forKey: "a")
        try expect(
            done?.status == .done && done?.output == [1, 2] && done?.leaseExpiresAt == nil, check,
            "record 'a' after settling done: \(String(describing: done))")
        let failed = try await journal.record(forKey: "c")
        try expect(
            failed?.status == .failed && failed?.failureReason == "disk full", check,
            "record 'c' after settling failed: \(String(describing: failed))")
        let compensated = try await journal.record(forKey: "d")
        try expect(compensated?.status == .compensated, check, "record 'd': \(String(describing: compensated))")
        let keys = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(keys == ["b"], check, "unfinished() lists \(keys)")
        let missing = try await journal.record(forKey: "zzz")
        try expect(missing == nil, check, "record(forKey:) of an unknown key gives \(String(describing: missing))")
        try await journal.settle("a", as: .done(output: [1, 2]), lease: other)
    }

    static func beginningAKeyAgainAnswersHowItStands(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "beginning a key again returns how it stands and changes nothing"
        let first = try await journal.begin(entry("a"), lease: lease).record
        guard case .busy(let busy) = try await journal.begin(entry("a"), lease: other) else {
            throw failure(check, "a second worker's begin of a held key did not answer busy")
        }
        try expect(busy.owner == lease.owner, check, "busy names owner \(String(describing: busy.owner))")
        try await journal.settle("a", as: .done(output: [7]), lease: lease)
        guard case .settled(let again) = try await journal.begin(entry("a"), lease: other) else {
            throw failure(check, "beginning a done key did not answer settled")
        }
        try expect(
            again.sequence == first.sequence && again.status == .done && again.output == [7], check,
            "second begin gave \(again), first was \(first)")
        let unfinished = try await journal.unfinished()
        try expect(unfinished.isEmpty, check, "unfinished() lists \(unfinished)")
    }

    static func unknownAndConflictingKeysAreRefused(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "unknown and conflicting keys are refused"
        try await expectError(.unknownKey("nope"), check, "settling an unknown key") {
            try await journal.settle("nope", as: .done(output: nil), lease: lease)
        }
        _ = try await journal.begin(entry("a"), lease: lease)
        let conflicting = CommandJournalEntry(idempotencyKey: "a", kind: "other", payload: [9])
        try await expectError(.conflictingEntry(key: "a"), check, "a conflicting begin") {
            _ = try await journal.begin(conflicting, lease: lease)
        }
        try await expectError(.conflictingEntry(key: "a"), check, "a conflicting enqueue") {
            _ = try await journal.enqueue(conflicting, queue: "q", after: .zero)
        }
    }

    static func concurrentBeginsAreAllKept(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "concurrent begins are all kept"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { _ = try await journal.begin(entry("k\(index)"), lease: lease) }
            }
            try await group.waitForAll()
        }
        let records = try await journal.unfinished()
        let sequences = records.map(\.sequence)
        try expect(
            records.count == 100 && Set(sequences).count == 100 && sequences == sequences.sorted(), check,
            "\(records.count) records, \(Set(sequences).count) distinct sequences")
    }

    static func severalSettlementsCommitTogetherOrNotAtAll(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "settle(_:lease:) writes children settled and commits all its changes, or none"
        _ = try await journal.begin(entry("t"), lease: lease)
        _ = try await journal.begin(entry("u"), lease: other)
        try await expectError(
            .leaseLost(key: "u", owner: other.owner), check, "a commit with a change on another's root"
        ) {
            try await journal.settle(
                [.settle(child("t", 0), as: .done(output: [1])), .settle(child("u", 0), as: .done(output: nil))],
                lease: lease)
        }
        let untouched = try await journal.records(parentKey: "t")
        try expect(untouched.isEmpty, check, "after a refused commit, 't' has the children \(untouched.map(\.id))")
        try await journal.settle(
            [.settle(child("t", 0), as: .done(output: [1])), .settle("t", as: .done(output: nil))], lease: lease)
        let statuses = try await statuses(journal, ["t", "t/0"])
        let output = try await journal.record(forKey: "t/0")?.output
        try expect(
            statuses == "done done" && output == [1], check,
            "statuses \(statuses), output \(String(describing: output))")
    }

    static func childrenAreWrittenUnderTheirRoot(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "children are written under a root their worker holds"
        try await begin(journal, "t", "other")
        for index in 0..<2 { _ = try await journal.append(child("t", index), lease: lease) }
        let again = try await journal.append(child("t", 0), lease: lease)
        try expect(again.status == .pending, check, "appending a child again gave \(again)")
        try await journal.settle("t/0", as: .compensated, lease: lease)
        let children = try await journal.records(parentKey: "t").map { "\($0.entry.idempotencyKey):\($0.status)" }
        try expect(
            children == ["t/0:compensated", "t/1:pending"], check, "records(parentKey: \"t\") lists \(children)")
        let all = try await journal.allRecords().map(\.entry.idempotencyKey)
        try expect(all == ["t", "other", "t/0", "t/1"], check, "allRecords() lists \(all)")
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "a child appended by another worker") {
            _ = try await journal.append(child("t", 2), lease: other)
        }
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "a child settled by another worker") {
            try await journal.settle("t/1", as: .done(output: nil), lease: other)
        }
        try await expectError(.conflictingEntry(key: "t/1"), check, "a child appended under another parent") {
            _ = try await journal.append(
                CommandJournalEntry(idempotencyKey: "t/1", kind: "step", parentKey: "other"), lease: lease)
        }
    }
}
