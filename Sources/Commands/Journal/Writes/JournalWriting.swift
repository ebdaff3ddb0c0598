#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A journal whose writes go through one ``JournalWriteChannel``: the in-memory, SQLite and
/// PostgreSQL journals. Their ``CommandJournal`` write calls are these, written once; a journal
/// that makes one of them otherwise (PostgreSQL's operator actions) declares its own.
package protocol JournalWriting: CommandJournal {
    /// Where the journal's writes go.
    var channel: JournalWriteChannel { get }
}

extension JournalWriting {
    /// Begins `entry` under `lease`; see ``CommandJournal/begin(_:lease:)``.
    public func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await channel.begin(entry, lease: lease)
    }

    /// Begins `entry` on `queue` under `lease`, in one write; see ``CommandJournal/begin(_:queue:lease:)``.
    public func begin(
        _ entry: CommandJournalEntry, queue: String, lease: JournalLease
    ) async throws -> CommandJournalBegin {
        try await channel.begin(entry, queue: queue, lease: lease)
    }

    /// Appends a child of a root `lease` holds; see ``CommandJournal/append(_:lease:)``.
    public func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await channel.append(entry, lease: lease)
    }

    /// Settles `key`, durably; see ``CommandJournal/settle(_:as:lease:)``.
    public func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await channel.settle(key, as: settlement, lease: lease)
    }

    /// Makes `changes` in one commit, all or none; see ``CommandJournal/settle(_:lease:)``.
    public func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        try await channel.settle(changes, lease: lease)
    }

    /// Renews the leases on `attempts`; see ``CommandJournal/renew(_:lease:)``.
    public func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        try await channel.renew(attempts, lease: lease)
    }

    /// Claims due records, at most `perPartition` running per partition; see
    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await channel.claim(
            limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
            lease: lease)
    }

    /// Enqueues `entry` at `priority` in `partition` with the caller's trace context, durably; see
    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await channel.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: partition, traceContext: traceContext)
    }

    /// Enqueues `jobs` in whole batches of the journal's group commit; see
    /// ``CommandJournal/enqueue(contentsOf:queue:traceContext:)``.
    public func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>] {
        try await channel.enqueue(contentsOf: jobs, queue: queue, traceContext: traceContext)
    }

    /// Deletes settled records, by status and queue, at most `limit` roots; see
    /// ``CommandJournalManagement/prune(settledBefore:statuses:queue:limit:)``.
    public func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        try await channel.prune(settledBefore: date, statuses: statuses, queue: queue, limit: limit)
    }

    /// Releases `key`, and logs the attempt's `failure` in the same commit; see
    /// ``CommandJournal/release(_:lease:after:failure:)``.
    public func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String?) async throws {
        if let failure {
            try await channel.release(key, lease: lease, after: delay, failure: failure)
        } else {
            try await channel.release(key, lease: lease, after: delay)
        }
    }

    /// Logs an attempt at `key`, fenced by `lease`; see ``CommandJournal/logAttempt(_:of:parentKey:lease:)``.
    public func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        try await channel.logAttempt(attempt, of: key, parentKey: parentKey, lease: lease)
    }

    /// Cancels `key`, in one commit; see ``CommandJournalManagement/cancel(_:reason:)``.
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        try await channel.cancel(key, reason: reason)
    }

    /// Retries `key`, in one commit; see ``CommandJournalManagement/retry(_:)``.
    public func retry(_ key: String) async throws -> CommandJournalRecord {
        try await channel.retry(key)
    }

    /// Makes `key` due now and wakes its queue's workers here; see ``CommandJournal/wake(_:)``.
    public func wake(_ key: String) async throws -> Bool {
        try await channel.wake(key)
    }

    /// Pauses `queue`, durably; see ``CommandJournalManagement/pause(queue:)``.
    public func pause(queue: String) async throws {
        try await channel.pause(queue, paused: true)
    }

    /// Resumes `queue` and wakes its workers here; see ``CommandJournalManagement/resume(queue:)``.
    public func resume(queue: String) async throws {
        try await channel.pause(queue, paused: false)
    }

    /// Wakes on each enqueue and retry of `queue` through this journal, in this process; see
    /// ``QueueWakeSource/wakeups(of:)``.
    public func wakeups(of queue: String) -> AsyncStream<Void> {
        channel.queueSignal.wakeups(of: queue)
    }

    /// Wakes on each settlement and cancellation of the record `key` through this journal, in
    /// this process; see ``JobSettlementSource/settlements(of:)``.
    public func settlements(of key: String) -> AsyncStream<Void> {
        channel.settlementSignal.wakeups(of: key)
    }
}
