#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The in-memory journal's writes: each ``JournalWrite`` applied to the state under its lock,
/// at the time `now` read once before.
extension InMemoryCommandJournal.State {
    /// Applies `write`; throws its refusal, having changed nothing.
    mutating func apply(_ write: JournalWrite, now: Date) throws(CommandJournalError) -> JournalWriteOutcome {
        switch write {
        case .begin(let entry, let lease):
            return .begun(try begin(entry, lease, now: now))
        case .beginOnQueue(let entry, let queue, let lease):
            return .begun(try begin(entry, lease, queue: queue, now: now))
        case .append(let entry, let lease):
            return .record(try append(entry, lease, now: now))
        case .settle(let key, let settlement, let lease):
            guard let index = indexByKey[key] else { throw .unknownKey(key) }
            let record = records[index]
            if record.status == settlement.status && record.isSettled { return .none }
            try checkHolds(record.entry.parentKey ?? key, lease)
            records[index].settle(settlement, now: now)
            return .none
        case .changes(let changes, let lease):
            var draft = self
            for change in changes { try draft.apply(change, lease: lease, now: now) }
            self = draft
            return .none
        case .renew(let attempts, let lease):
            return .keys(renew(attempts, lease, now: now))
        case .release(let key, let lease, let delay):
            guard let index = indexByKey[key], records[index].isHeld(by: lease) else { return .none }
            release(index, after: delay, now: now)
            return .none
        case .claim(let limit, let queue, let concurrency, let perPartition, let deadOwner, let lease):
            return .claimed(
                claim(
                    limit, queue, concurrency: concurrency, perPartition: perPartition, deadOwner: deadOwner, lease,
                    now: now))
        case .enqueue(let entry, let queue, let delay, let priority, let partition, let traceContext):
            if let index = indexByKey[entry.idempotencyKey] {
                guard records[index].entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
                return .record(records[index])
            }
            if let partition { partitions[entry.idempotencyKey] = partition }
            return .record(
                insert(
                    entry, now: now, owner: nil, until: now.adding(delay), queue: queue, traceContext: traceContext,
                    priority: priority))
        case .prune(let milliseconds, let statuses, let queue, let limit):
            return .count(
                prune(
                    settledBefore: Date(journalMilliseconds: milliseconds), statuses: statuses, queue: queue,
                    limit: limit))
        case .releaseFailed(let key, let lease, let delay, let failure):
            guard let index = indexByKey[key], records[index].isHeld(by: lease) else { return .none }
            let record = records[index]
            log(CommandJournalAttempt(number: record.attempts, owner: record.owner, error: failure, endedAt: now), key)
            release(index, after: delay, now: now)
            return .none
        case .cancel(let key, let reason):
            return .record(try cancel(key, reason: reason, now: now))
        case .retry(let key):
            return .record(try retry(key, now: now))
        case .pause(let queue, let paused):
            if paused { self.paused.insert(queue) } else { self.paused.remove(queue) }
            return .none
        case .wake(let key):
            guard let index = indexByKey[key], records[index].isWaiting(at: now) else { return .none }
            records[index].leaseExpiresAt = now
            records[index].updatedAt = now
            return .record(records[index])
        case .logAttempt(let attempt, let key, let parentKey, let lease):
            guard (try? checkHolds(parentKey ?? key, lease)) != nil else { return .none }
            var logged = attempt
            logged.endedAt = now
            log(logged, key)
            return .none
        }
    }

    private mutating func begin(
        _ entry: CommandJournalEntry, _ lease: JournalLease, queue: String? = nil, now: Date
    ) throws(CommandJournalError) -> CommandJournalBegin {
        guard let index = indexByKey[entry.idempotencyKey] else {
            return .started(
                insert(entry, now: now, owner: lease.owner, until: now.adding(lease.duration), queue: queue))
        }
        let existing = records[index]
        guard existing.entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
        if existing.isSettled { return .settled(existing) }
        guard entry.parentKey == nil, let expiry = existing.leaseExpiresAt, expiry <= now else {
            return .busy(existing)
        }
        records[index].hold(lease, now: now)
        return .resumed(records[index])
    }

    private mutating func append(
        _ entry: CommandJournalEntry, _ lease: JournalLease, now: Date
    ) throws(CommandJournalError) -> CommandJournalRecord {
        guard let parentKey = entry.parentKey else { throw .conflictingEntry(key: entry.idempotencyKey) }
        try checkHolds(parentKey, lease)
        if let index = indexByKey[entry.idempotencyKey] {
            guard records[index].entry == entry else { throw .conflictingEntry(key: entry.idempotencyKey) }
            return records[index]
        }
        return insert(entry, now: now, owner: nil, until: nil, queue: nil)
    }

    private mutating func renew(_ attempts: [String: Int], _ lease: JournalLease, now: Date) -> [String] {
        attempts.keys.sorted().filter { key in
            let attempt = JournalLease(owner: lease.owner, duration: lease.duration, token: attempts[key])
            guard let index = indexByKey[key], records[index].isHeld(by: attempt) else { return false }
            records[index].leaseExpiresAt = now.adding(lease.duration)
            return true
        }
    }

    private mutating func release(_ index: Int, after delay: Duration, now: Date) {
        records[index].owner = nil
        records[index].leaseExpiresAt = now.adding(delay)
        records[index].updatedAt = now
    }

    private mutating func claim(
        _ limit: Int, _ queue: String?, concurrency: Int?, perPartition: Int?, deadOwner: String?,
        _ lease: JournalLease, now: Date
    ) -> CommandJournalClaim {
        if let queue, paused.contains(queue) {
            return CommandJournalClaim(records: [], nextDue: nil, previousOwners: [:])
        }
        let open = records.indices.filter {
            records[$0].status == .pending && records[$0].entry.parentKey == nil && records[$0].queue == queue
        }
        // The highest priority first, then the oldest (records are in sequence order).
        let byPriority = open.sorted { first, second in
            let (a, b) = (records[first].priority, records[second].priority)
            return a != b ? a > b : first < second
        }
        let running = open.count { records[$0].isRunning(at: now) }
        let milliseconds = now.journalMilliseconds
        var gate = rateGate(queue, now: milliseconds)
        var room = max(0, min(limit, (concurrency ?? Int.max) - running))
        if let rated = gate { room = rated.room(room) }
        // Each partition's running records, counted once; a record claimed here counts in its own.
        var partitionRunning: [String: Int] = [:]
        if perPartition != nil {
            for index in open where records[index].isRunning(at: now) {
                if let partition = partitions[records[index].id] { partitionRunning[partition, default: 0] += 1 }
            }
        }
        var claimed: [CommandJournalRecord] = []
        var previousOwners: [String: String] = [:]
        for index in byPriority where claimed.count < room {
            let record = records[index]
            guard let due = record.leaseExpiresAt, due <= now || (deadOwner != nil && record.owner == deadOwner)
            else { continue }
            let partition = partitions[record.id]
            if let perPartition, let partition {
                // A record taken over from its stopped owner still counts as running: it frees its place.
                let before = record.isRunning(at: now) ? 1 : 0
                guard partitionRunning[partition, default: 0] - before < max(1, perPartition) else { continue }
            }
            if gate != nil {
                let rates = self
                guard
                    gate?.admits(partition: partition, now: milliseconds, stored: { rates.partitionBucket(queue, $0) })
                        == true
                else { continue }
                gate?.start(partition: partition)
            }
            if perPartition != nil, let partition {
                partitionRunning[partition, default: 0] += 1 - (record.isRunning(at: now) ? 1 : 0)
            }
            if let owner = record.owner {
                previousOwners[record.id] = owner
            } else {
                pickups[record.id] = max(0, milliseconds &- due.journalMilliseconds)
            }
            records[index].hold(lease, now: now)
            claimed.append(records[index])
        }
        let next = open.compactMap { records[$0].leaseExpiresAt }.filter { $0 > now }.min()
        guard var gate else {
            return CommandJournalClaim(
                records: claimed, nextDue: next.map { now.duration(to: $0) }, previousOwners: previousOwners)
        }
        // Due records left behind: held back by the limit (or another), due again when a start is.
        if open.contains(where: { records[$0].leaseExpiresAt.map { $0 <= now } ?? false }) { gate.heldBack() }
        keep(gate, of: queue, now: milliseconds)
        let due = gate.nextDue(next.map { now.duration(to: $0).journalMilliseconds })
        return CommandJournalClaim(
            records: claimed, nextDue: due.map { .milliseconds($0) }, previousOwners: previousOwners,
            heldByRateLimit: gate.heldByQueueLimit)
    }

    private mutating func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) -> Int {
        let unfinishedParents = Set(records.lazy.filter { $0.status == .pending }.compactMap(\.entry.parentKey))
        let candidates = records.filter {
            $0.entry.parentKey == nil && $0.isSettled && $0.updatedAt < date
                && (statuses.isEmpty || statuses.contains($0.status)) && (queue == nil || $0.queue == queue)
                && !unfinishedParents.contains($0.id)
        }
        .sorted { ($0.updatedAt, $0.sequence) < ($1.updatedAt, $1.sequence) }
        let roots = Set(candidates.prefix(limit ?? candidates.count).map(\.entry.idempotencyKey))
        let before = records.count
        for record in records where roots.contains(record.entry.parentKey ?? record.id) {
            attemptLog[record.id] = nil
        }
        records.removeAll { roots.contains($0.entry.parentKey ?? $0.entry.idempotencyKey) }
        for root in roots {
            partitions[root] = nil
            pickups[root] = nil
        }
        reindex()
        return before - records.count
    }

    /// Rebuilds the index by key after records were removed.
    mutating func reindex() {
        indexByKey = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.entry.idempotencyKey, $0) })
    }
}

extension CommandJournalRecord {
    /// Whether a worker holds it under a lease that has not ended at `now`.
    func isRunning(at now: Date) -> Bool {
        owner != nil && leaseExpiresAt ?? now > now
    }

    /// Whether it is a pending root on a queue that no worker holds, due after `now`
    /// (``CommandJournal/wake(_:)``).
    func isWaiting(at now: Date) -> Bool {
        status == .pending && entry.parentKey == nil && queue != nil && owner == nil && leaseExpiresAt ?? now > now
    }
}
