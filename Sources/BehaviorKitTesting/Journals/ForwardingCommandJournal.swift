public import Commands

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A journal that hands every call to another, for a test to override the calls it changes: a
/// renewal that hangs, a settlement whose answer is held back, reads that fail. Subclass it and
/// override those calls; the rest reach ``base`` unchanged.
///
/// ```swift
/// final class HangingRenewals: ForwardingCommandJournal, @unchecked Sendable {
///     override func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
///         try await Task.sleep(for: .seconds(3600))
///         return []
///     }
/// }
/// let journal = HangingRenewals(InMemoryCommandJournal(clock: clock))
/// ```
///
/// A subclass keeps its own state `Sendable` (a lock around what changes), as this class does:
/// its only state is ``base``.
open class ForwardingCommandJournal: CommandJournalManagement, @unchecked Sendable {
    /// The journal that answers every call not overridden.
    public let base: any CommandJournalManagement

    /// Forwards every call to `base`.
    public init(_ base: any CommandJournalManagement) { self.base = base }

    /// `base`'s; see `CommandJournal.leasesOutlastWriteStalls`.
    open var leasesOutlastWriteStalls: Bool { base.leasesOutlastWriteStalls }

    /// Forwards; see `CommandJournal.begin(_:lease:)`.
    open func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await base.begin(entry, lease: lease)
    }

    /// Forwards; see `CommandJournal.begin(_:queue:lease:)`.
    open func begin(
        _ entry: CommandJournalEntry, queue: String, lease: JournalLease
    ) async throws -> CommandJournalBegin {
        try await base.begin(entry, queue: queue, lease: lease)
    }

    /// Forwards; see `CommandJournal.append(_:lease:)`.
    open func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await base.append(entry, lease: lease)
    }

    /// Forwards; see `CommandJournal.settle(_:as:lease:)`.
    open func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await base.settle(key, as: settlement, lease: lease)
    }

    /// Forwards; see `CommandJournal.settle(_:lease:)`.
    open func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        try await base.settle(changes, lease: lease)
    }

    /// Forwards; see `CommandJournal.renew(_:lease:)`.
    open func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        try await base.renew(attempts, lease: lease)
    }

    /// Forwards; see `CommandJournal.release(_:lease:after:failure:)`.
    open func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String?) async throws {
        try await base.release(key, lease: lease, after: delay, failure: failure)
    }

    /// Forwards; see `CommandJournal.claim(_:from:concurrency:perPartition:takingOverFrom:lease:)`.
    open func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await base.claim(
            limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
            lease: lease)
    }

    /// Forwards; see `CommandJournal.enqueue(_:queue:after:priority:partition:traceContext:)`.
    open func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await base.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: partition, traceContext: traceContext)
    }

    /// Forwards; see `CommandJournal.enqueue(contentsOf:queue:traceContext:)`.
    open func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>] {
        try await base.enqueue(contentsOf: jobs, queue: queue, traceContext: traceContext)
    }

    /// Forwards; see `CommandJournal.logAttempt(_:of:parentKey:lease:)`.
    open func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        try await base.logAttempt(attempt, of: key, parentKey: parentKey, lease: lease)
    }

    /// Forwards; see `CommandJournal.record(forKey:)`.
    open func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }

    /// Forwards; see `CommandJournal.unfinished()`.
    open func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }

    /// Forwards; see `CommandJournal.records(parentKey:)`.
    open func records(parentKey: String) async throws -> [CommandJournalRecord] {
        try await base.records(parentKey: parentKey)
    }

    /// Forwards; see `CommandJournal.allRecords()`.
    open func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }

    /// Forwards; see `CommandJournal.records(matching:after:limit:)`.
    open func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        try await base.records(matching: filter, after: cursor, limit: limit)
    }

    /// Forwards; see `CommandJournal.wake(_:)`.
    open func wake(_ key: String) async throws -> Bool { try await base.wake(key) }

    /// Forwards; see `CommandJournal.close()`.
    open func close() async throws { try await base.close() }

    /// Forwards; see `CommandJournalManagement.prune(settledBefore:statuses:queue:limit:)`.
    open func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        try await base.prune(settledBefore: date, statuses: statuses, queue: queue, limit: limit)
    }

    /// Forwards; see `CommandJournalManagement.retry(matching:after:limit:)`.
    open func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await base.retry(matching: filter, after: cursor, limit: limit)
    }

    /// Forwards; see `CommandJournalManagement.cancel(matching:reason:after:limit:)`.
    open func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await base.cancel(matching: filter, reason: reason, after: cursor, limit: limit)
    }

    /// Forwards; see `CommandJournalManagement.details(forKey:)`.
    open func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        try await base.details(forKey: key)
    }

    /// Forwards; see `CommandJournalManagement.workers()`.
    open func workers() async throws -> [CommandJournalWorker] { try await base.workers() }

    /// Forwards; see `CommandJournalManagement.queues()`.
    open func queues() async throws -> [CommandJournalQueueStatistics] { try await base.queues() }

    /// Forwards; see `CommandJournalManagement.cancel(_:reason:)`.
    open func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        try await base.cancel(key, reason: reason)
    }

    /// Forwards; see `CommandJournalManagement.retry(_:)`.
    open func retry(_ key: String) async throws -> CommandJournalRecord { try await base.retry(key) }

    /// Forwards; see `CommandJournalManagement.pause(queue:)`.
    open func pause(queue: String) async throws { try await base.pause(queue: queue) }

    /// Forwards; see `CommandJournalManagement.resume(queue:)`.
    open func resume(queue: String) async throws { try await base.resume(queue: queue) }

    /// Forwards; see `CommandJournalManagement.pausedQueues()`.
    open func pausedQueues() async throws -> Set<String> { try await base.pausedQueues() }

    /// Forwards; see `CommandJournalManagement.activity(since:)`.
    open func activity(since: Date) async throws -> [QueueActivity] { try await base.activity(since: since) }

    /// Forwards; see `CommandJournalManagement.setRateLimit(_:queue:scope:)`.
    open func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope) async throws {
        try await base.setRateLimit(limit, queue: queue, scope: scope)
    }

    /// Forwards; see `CommandJournalManagement.rateLimits()`.
    open func rateLimits() async throws -> [CommandJournalRateLimit] { try await base.rateLimits() }

    /// Forwards; see `CommandJournalManagement.saveSchedule(_:)`.
    open func saveSchedule(_ schedule: QueueSchedule) async throws -> CommandJournalSchedule {
        try await base.saveSchedule(schedule)
    }

    /// Forwards; see `CommandJournalManagement.removeSchedule(named:)`.
    open func removeSchedule(named name: String) async throws -> Bool { try await base.removeSchedule(named: name) }

    /// Forwards; see `CommandJournalManagement.schedules()`.
    open func schedules() async throws -> [CommandJournalSchedule] { try await base.schedules() }

    /// Forwards; see `CommandJournalManagement.advanceSchedule(named:revision:from:to:)`.
    open func advanceSchedule(
        named name: String, revision: Int64, from lastTick: Date?, to tick: Date
    ) async throws -> Bool {
        try await base.advanceSchedule(named: name, revision: revision, from: lastTick, to: tick)
    }
}
