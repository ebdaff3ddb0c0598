import BehaviorKitSync

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A ``CommandJournal`` in memory: for tests, and for processes that only need the
/// bookkeeping (a crash loses it). Its workers are the tasks of one process.
///
/// ```swift
/// let journal = InMemoryCommandJournal()
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// ```
public final class InMemoryCommandJournal: CommandJournal {
    struct State {
        var records: [CommandJournalRecord] = []
        var indexByKey: [String: Int] = [:]
        var nextSequence: Int64 = 1
        /// The attempts that ended with an error or were cancelled, by key.
        var attemptLog: [String: [CommandJournalAttempt]] = [:]
    }

    let state = LockedValue(State())
    let clock: any WallClock

    /// Creates an empty journal whose leases and timestamps follow `clock`.
    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// Every record, in sequence order.
    public var records: [CommandJournalRecord] { state.withLock { $0.records } }

    var now: Date { Date(journalMilliseconds: clock.currentDate.journalMilliseconds) }

    /// Begins `entry` under `lease`; see ``CommandJournal/begin(_:lease:)``.
    public func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        let now = self.now
        return try state.withLock { state throws(CommandJournalError) -> CommandJournalBegin in
            guard let index = state.indexByKey[entry.idempotencyKey] else {
                let record = state.insert(
                    entry, now: now, owner: lease.owner, until: now.adding(lease.duration), queue: nil)
                return .started(record)
            }
            let existing = state.records[index]
            guard existing.entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
            if existing.isSettled { return .settled(existing) }
            guard entry.parentKey == nil, let expiry = existing.leaseExpiresAt, expiry <= now else {
                return .busy(existing)
            }
            state.records[index].hold(lease, now: now)
            return .resumed(state.records[index])
        }
    }

    /// Appends a child of a root `lease` holds; see ``CommandJournal/append(_:lease:)``.
    public func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        let now = self.now
        return try state.withLock { state throws(CommandJournalError) -> CommandJournalRecord in
            guard let parentKey = entry.parentKey else { throw .conflictingEntry(key: entry.idempotencyKey) }
            try state.checkHolds(parentKey, lease)
            if let index = state.indexByKey[entry.idempotencyKey] {
                guard state.records[index].entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
                return state.records[index]
            }
            return state.insert(entry, now: now, owner: nil, until: nil, queue: nil)
        }
    }

    /// Settles `key`; see ``CommandJournal/settle(_:as:lease:)``.
    public func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        let now = self.now
        try state.withLock { state throws(CommandJournalError) in
            guard let index = state.indexByKey[key] else { throw .unknownKey(key) }
            let record = state.records[index]
            if record.status == settlement.status && record.isSettled { return }
            try state.checkHolds(record.entry.parentKey ?? key, lease)
            state.records[index].settle(settlement, now: now)
        }
    }

    /// Makes `changes` atomically; see ``CommandJournal/settle(_:lease:)``.
    public func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        let now = self.now
        try state.withLock { state throws(CommandJournalError) in
            var draft = state
            for change in changes {
                try draft.apply(change, lease: lease, now: now)
            }
            state = draft
        }
    }

    /// Renews the leases on `attempts`; see ``CommandJournal/renew(_:lease:)``.
    public func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        let now = self.now
        return state.withLock { state in
            attempts.keys.sorted().filter { key in
                let attempt = JournalLease(owner: lease.owner, duration: lease.duration, token: attempts[key])
                guard let index = state.indexByKey[key], state.records[index].isHeld(by: attempt) else {
                    return false
                }
                state.records[index].leaseExpiresAt = now.adding(lease.duration)
                return true
            }
        }
    }

    /// Releases `key`; see ``CommandJournal/release(_:lease:after:)``.
    public func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        let now = self.now
        state.withLock { state in
            guard let index = state.indexByKey[key], state.records[index].isHeld(by: lease) else { return }
            state.records[index].owner = nil
            state.records[index].leaseExpiresAt = now.adding(delay)
            state.records[index].updatedAt = now
        }
    }

    /// Claims due records; see ``CommandJournal/claim(_:from:concurrency:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        let now = self.now
        return state.withLock { state in
            let open = state.records.indices.filter {
                let record = state.records[$0]
                return record.status == .pending && record.entry.parentKey == nil && record.queue == queue
            }
            let running = open.count { state.records[$0].owner != nil && state.records[$0].leaseExpiresAt ?? now > now }
            let room = max(0, min(limit, (concurrency ?? Int.max) - running))
            var claimed: [CommandJournalRecord] = []
            var previousOwners: [String: String] = [:]
            for index in open where claimed.count < room {
                let record = state.records[index]
                guard let due = record.leaseExpiresAt, due <= now || (deadOwner != nil && record.owner == deadOwner)
                else { continue }
                if let owner = record.owner { previousOwners[record.id] = owner }
                state.records[index].hold(lease, now: now)
                claimed.append(state.records[index])
            }
            let next = open.compactMap { state.records[$0].leaseExpiresAt }.filter { $0 > now }.min()
            return CommandJournalClaim(
                records: claimed, nextDue: next.map { now.duration(to: $0) }, previousOwners: previousOwners)
        }
    }

    /// Enqueues `entry`; see ``CommandJournal/enqueue(_:queue:after:)``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws
        -> CommandJournalRecord
    {
        let now = self.now
        return try state.withLock { state throws(CommandJournalError) -> CommandJournalRecord in
            if let index = state.indexByKey[entry.idempotencyKey] {
                guard state.records[index].entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
                return state.records[index]
            }
            return state.insert(entry, now: now, owner: nil, until: now.adding(delay), queue: queue)
        }
    }

    /// Prunes settled records; see ``CommandJournal/prune(settledBefore:)``.
    public func prune(settledBefore date: Date) async throws -> Int {
        state.withLock { state in
            let roots = Set(
                state.records.filter { $0.entry.parentKey == nil && $0.isSettled && $0.updatedAt < date }
                    .map(\.entry.idempotencyKey))
            let before = state.records.count
            for record in state.records where roots.contains(record.entry.parentKey ?? record.id) {
                state.attemptLog[record.id] = nil
            }
            state.records.removeAll { roots.contains($0.entry.parentKey ?? $0.entry.idempotencyKey) }
            state.indexByKey = Dictionary(
                uniqueKeysWithValues: state.records.enumerated().map { ($1.entry.idempotencyKey, $0) })
            return before - state.records.count
        }
    }

    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        state.withLock { state in state.indexByKey[key].map { state.records[$0] } }
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        state.withLock { $0.records.filter { $0.status == .pending } }
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        state.withLock { $0.records.filter { $0.entry.parentKey == parentKey } }
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] { records }
}

extension InMemoryCommandJournal.State {
    mutating func insert(
        _ entry: CommandJournalEntry, now: Date, owner: String?, until expiry: Date?, queue: String?
    ) -> CommandJournalRecord {
        let record = CommandJournalRecord(
            sequence: nextSequence, entry: entry, status: .pending, owner: owner, leaseExpiresAt: expiry,
            queue: queue, attempts: owner == nil ? 0 : 1, createdAt: now)
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
