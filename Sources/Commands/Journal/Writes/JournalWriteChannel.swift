#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The typed calls of ``CommandJournal``'s writes over one function that applies a
/// ``JournalWrite`` (a store's group commit, or its lock): each call submits its write and
/// unwraps its outcome here, once for every store.
package struct JournalWriteChannel: Sendable {
    /// Applies one write and answers its outcome, or throws its refusal.
    package typealias Submit = @Sendable (JournalWrite) async throws -> JournalWriteOutcome

    /// Applies writes in their order, as one caller, and answers each one's outcome or refusal.
    package typealias SubmitAll = @Sendable ([JournalWrite]) async -> [Result<JournalWriteOutcome, any Error>]

    private let apply: Submit
    private let applyAll: SubmitAll?
    private let unexpected: @Sendable () -> any Error
    /// Wakes this process's workers of a queue when one of its records became claimable here
    /// (``QueueWakeSource``).
    package let queueSignal = QueueSignal()
    /// Wakes this process's waiters on a record (``JobHandle/result()``) when it may have
    /// settled here, by the record's key (``JobSettlementSource``).
    package let settlementSignal = QueueSignal()

    /// A channel submitting to `submit`; `unexpected` is the error of an outcome that does not
    /// answer its write (a store's bug, never a caller's). `submitAll`, when the store has it,
    /// hands many writes to its group commit at once (``enqueue(contentsOf:queue:traceContext:)``);
    /// without it they are submitted one after another.
    package init(
        unexpected: @escaping @Sendable () -> any Error, submit: @escaping Submit, submitAll: SubmitAll? = nil
    ) {
        self.apply = submit
        self.applyAll = submitAll
        self.unexpected = unexpected
    }

    /// Submits `write`; returns its outcome as it came.
    package func send(_ write: JournalWrite) async throws -> JournalWriteOutcome {
        try await submit(write)
    }

    /// Applies `write` once its keys passed ``StoredKey``'s rule (an ``InvalidKeyError`` otherwise,
    /// before the store sees it).
    private func submit(_ write: JournalWrite) async throws -> JournalWriteOutcome {
        try write.checkKeys()
        return try await apply(write)
    }

    /// ``CommandJournal/begin(_:lease:)``.
    package func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        guard case .begun(let begun) = try await submit(.begin(entry, lease)) else { throw unexpected() }
        return begun
    }

    /// ``CommandJournal/begin(_:queue:lease:)``.
    package func begin(
        _ entry: CommandJournalEntry, queue: String, lease: JournalLease
    ) async throws -> CommandJournalBegin {
        guard case .begun(let begun) = try await submit(.beginOnQueue(entry, queue: queue, lease)) else {
            throw unexpected()
        }
        return begun
    }

    /// ``CommandJournal/append(_:lease:)``.
    package func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await record(.append(entry, lease))
    }

    /// ``CommandJournal/settle(_:as:lease:)``.
    package func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        _ = try await submit(.settle(key, settlement, lease))
        settlementSignal.signal(key)
    }

    /// ``CommandJournal/settle(_:lease:)``; no write when `changes` is empty.
    package func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        guard !changes.isEmpty else { return }
        _ = try await submit(.changes(changes, lease))
        for change in changes { settlementSignal.signal(change.key) }
    }

    /// ``CommandJournal/renew(_:lease:)``.
    package func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        guard case .keys(let kept) = try await submit(.renew(attempts, lease)) else { throw unexpected() }
        return kept
    }

    /// ``CommandJournal/release(_:lease:after:)``.
    package func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        _ = try await submit(.release(key, lease, after: delay))
    }

    /// ``CommandJournal/release(_:lease:after:failure:)``.
    package func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String) async throws {
        _ = try await submit(.releaseFailed(key, lease, after: delay, failure: failure))
    }

    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    package func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int? = nil,
        takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        let write = JournalWrite.claim(
            limit, queue: queue, concurrency: concurrency, perPartition: perPartition, deadOwner: deadOwner, lease)
        guard case .claimed(let claim) = try await submit(write) else { throw unexpected() }
        return claim
    }

    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    package func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String? = nil,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        let record = try await record(
            .enqueue(
                entry, queue: queue, after: delay, priority: priority, partition: partition,
                traceContext: traceContext))
        queueSignal.signal(queue)
        return record
    }

    /// ``CommandJournal/enqueue(contentsOf:queue:traceContext:)``: every key checked before any
    /// is written, then the writes handed to the store in their order; each answers its record or
    /// its refusal, in the jobs' order.
    package func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>] {
        let writes = jobs.map {
            JournalWrite.enqueue(
                $0.entry, queue: queue, after: $0.delay, priority: $0.priority, partition: $0.partition,
                traceContext: traceContext)
        }
        for write in writes { try write.checkKeys() }
        let outcomes: [Result<JournalWriteOutcome, any Error>]
        if let applyAll {
            outcomes = await applyAll(writes)
        } else {
            var answered: [Result<JournalWriteOutcome, any Error>] = []
            answered.reserveCapacity(writes.count)
            for write in writes {
                do {
                    answered.append(.success(try await apply(write)))
                } catch {
                    answered.append(.failure(error))
                }
            }
            outcomes = answered
        }
        if !writes.isEmpty { queueSignal.signal(queue) }
        return outcomes.map { outcome in
            outcome.flatMap { answer in
                guard case .record(let record) = answer else { return .failure(unexpected()) }
                return .success(record)
            }
        }
    }

    /// ``CommandJournalManagement/prune(settledBefore:statuses:queue:limit:)``.
    package func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        let write = JournalWrite.prune(
            settledBefore: date.journalMilliseconds, statuses: statuses, queue: queue, limit: limit.map { max(1, $0) })
        guard case .count(let count) = try await submit(write) else {
            throw unexpected()
        }
        return count
    }

    /// ``CommandJournalManagement/cancel(_:reason:)``.
    package func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        let record = try await record(.cancel(key, reason: reason))
        settlementSignal.signal(key)
        return record
    }

    /// ``CommandJournalManagement/retry(_:)``.
    package func retry(_ key: String) async throws -> CommandJournalRecord {
        let record = try await record(.retry(key))
        if let queue = record.queue { queueSignal.signal(queue) }
        return record
    }

    /// ``CommandJournal/wake(_:)``, which wakes this process's workers of the record's queue.
    package func wake(_ key: String) async throws -> Bool {
        guard case .record(let record) = try await submit(.wake(key)) else { return false }
        if let queue = record.queue { queueSignal.signal(queue) }
        return true
    }

    /// ``CommandJournal/logAttempt(_:of:parentKey:lease:)``.
    package func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        _ = try await submit(.logAttempt(attempt, key: key, parentKey: parentKey, lease))
    }

    /// ``CommandJournalManagement/pause(queue:)`` when `paused`, otherwise ``CommandJournalManagement/resume(queue:)``,
    /// which wakes this process's workers of the queue.
    package func pause(_ queue: String, paused: Bool) async throws {
        _ = try await submit(.pause(queue: queue, paused: paused))
        if !paused { queueSignal.signal(queue) }
    }

    private func record(_ write: JournalWrite) async throws -> CommandJournalRecord {
        guard case .record(let record) = try await submit(write) else { throw unexpected() }
        return record
    }
}
