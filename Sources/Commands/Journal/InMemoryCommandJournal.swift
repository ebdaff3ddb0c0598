import BehaviorKitSync

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``CommandJournal`` in memory: for tests, and for processes that only need the
/// bookkeeping (a crash loses it). Its workers are the tasks of one process.
///
/// ```swift
/// let journal = InMemoryCommandJournal()
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// ```
public final class InMemoryCommandJournal: CommandJournalManagement, JournalWriting, QueueWakeSource,
    JobSettlementSource
{
    struct State {
        var records: [CommandJournalRecord] = []
        var indexByKey: [String: Int] = [:]
        var nextSequence: Int64 = 1
        /// The attempts that ended with an error or were cancelled, by key.
        var attemptLog: [String: [CommandJournalAttempt]] = [:]
        /// The queues paused (``CommandJournalManagement/pause(queue:)``).
        var paused: Set<String> = []
        /// The schedules (``CommandJournalManagement/saveSchedule(_:)``), by name.
        var schedules: [String: CommandJournalSchedule] = [:]
        /// The partition of each queued record enqueued in one, by key.
        var partitions: [String: String] = [:]
        /// How long each queued record waited, from falling due to the claim that took it from
        /// its queue, in milliseconds, by key (``QueueActivity``).
        var pickups: [String: Int64] = [:]
        /// The rate limits (``CommandJournalManagement/setRateLimit(_:queue:scope:)``).
        var rateLimits: [RateLimitKey: QueueRateLimit] = [:]
        /// The rate limits' buckets: credit, and when it was written (milliseconds).
        var rateBuckets: [RateBucketKey: (credit: Int64, at: Int64)] = [:]
    }

    let state = LockedValue(State())
    let clock: any WallClock
    /// The writes, each applied under the lock.
    package let channel: JournalWriteChannel

    /// Creates an empty journal whose leases and timestamps follow `clock`.
    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
        let state = self.state
        // `apply` answers every write with the outcome of its kind: `unexpected` never runs.
        channel = JournalWriteChannel(unexpected: { CommandJournalError.unknownKey("") }) { write in
            let now = Date(journalMilliseconds: clock.currentDate.journalMilliseconds)
            // Applied at once: queued and committed in one step (``WriteQueued``).
            defer { WriteQueued.signal?() }
            return try state.withLock { state throws(CommandJournalError) in try state.apply(write, now: now) }
        }
    }

    /// Every record, in sequence order.
    public var records: [CommandJournalRecord] { state.withLock { $0.records } }

    var now: Date { Date(journalMilliseconds: clock.currentDate.journalMilliseconds) }

    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        guard StoredKey.isStorable(key) else { return nil }
        return state.withLock { state in state.indexByKey[key].map { state.records[$0] } }
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        state.withLock { $0.records.filter { $0.status == .pending } }
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        guard StoredKey.isStorable(parentKey) else { return [] }
        return state.withLock { $0.records.filter { $0.entry.parentKey == parentKey } }
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] { records }
}

extension InMemoryCommandJournal.State {
    mutating func insert(
        _ entry: CommandJournalEntry, now: Date, owner: String?, until expiry: Date?, queue: String?,
        traceContext: [String: String]? = nil, priority: Int = CommandQueue.defaultPriority
    ) -> CommandJournalRecord {
        let record = CommandJournalRecord(
            sequence: nextSequence, entry: entry, status: .pending, owner: owner, leaseExpiresAt: expiry,
            queue: queue, attempts: owner == nil ? 0 : 1, createdAt: now, traceContext: traceContext,
            priority: priority)
        nextSequence += 1
        indexByKey[entry.idempotencyKey] = records.count
        records.append(record)
        return record
    }

    /// Settles one change, writing a missing child with its entry.
    mutating func apply(_ change: CommandJournalChange, lease: JournalLease, now: Date) throws(CommandJournalError) {
        if indexByKey[change.key] == nil {
            guard let entry = change.entry, let parentKey = entry.parentKey else { throw .unknownKey(change.key) }
            try checkHolds(parentKey, lease)
            _ = insert(entry, now: now, owner: nil, until: nil, queue: nil)
        }
        guard let index = indexByKey[change.key] else { throw .unknownKey(change.key) }
        let record = records[index]
        if let entry = change.entry, entry != record.entry { throw .conflictingEntry(key: change.key) }
        if record.status == change.settlement.status && record.isSettled { return }
        try checkHolds(record.entry.parentKey ?? change.key, lease)
        records[index].settle(change.settlement, now: now)
    }

    /// Throws unless `lease`'s owner holds the pending root `key`.
    func checkHolds(_ key: String, _ lease: JournalLease) throws(CommandJournalError) {
        guard let index = indexByKey[key] else { throw .leaseLost(key: key, owner: nil) }
        let root = records[index]
        guard root.isHeld(by: lease) else { throw .leaseLost(key: key, owner: root.owner) }
    }
}

extension CommandJournalRecord {
    /// Whether `lease` holds this pending root, at its token when it names one.
    func isHeld(by lease: JournalLease) -> Bool {
        status == .pending && entry.parentKey == nil && lease.holds(owner: owner, attempts: attempts)
    }

    mutating func hold(_ lease: JournalLease, now: Date) {
        owner = lease.owner
        leaseExpiresAt = now.adding(lease.duration)
        attempts += 1
        updatedAt = now
    }

    mutating func settle(_ settlement: CommandJournalSettlement, now: Date) {
        status = settlement.status
        switch settlement {
        case .done(let output): output.map { self.output = $0 }; failureReason = nil
        case .failed(let reason): failureReason = reason
        case .compensated: break
        }
        if entry.parentKey == nil { leaseExpiresAt = nil }
        updatedAt = now
    }
}
