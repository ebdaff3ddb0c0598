import BehaviorKitSync

extension InMemoryCommandJournal {
    /// Releases `key` and logs the attempt's `failure`; see
    /// ``CommandJournal/release(_:lease:after:failure:)``.
    public func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String) async throws {
        let now = self.now
        state.withLock { state in
            guard let index = state.indexByKey[key], state.records[index].isHeld(by: lease) else { return }
            let record = state.records[index]
            state.log(
                CommandJournalAttempt(number: record.attempts, owner: record.owner, error: failure, endedAt: now), key)
            state.records[index].owner = nil
            state.records[index].leaseExpiresAt = now.adding(delay)
            state.records[index].updatedAt = now
        }
    }

    /// Logs an attempt at `key` under `lease`; see ``CommandJournal/logAttempt(_:of:parentKey:lease:)``.
    public func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        let now = self.now
        state.withLock { state in
            guard (try? state.checkHolds(parentKey ?? key, lease)) != nil else { return }
            var logged = attempt
            logged.endedAt = now
            state.log(logged, key)
        }
    }

    /// The records passing `filter`; see ``CommandJournal/records(matching:after:limit:)``.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        state.withLock { state in
            CommandJournalPage(state.records.lazy.filter(filter.matches), after: cursor, limit: limit)
        }
    }

    /// The record `key` in full; see ``CommandJournal/details(forKey:)``.
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        state.withLock { state in
            guard let index = state.indexByKey[key] else { return nil }
            let record = state.records[index]
            return CommandJournalRecordDetails(
                record: record, children: state.records.filter { $0.entry.parentKey == key },
                attempts: CommandJournalAttempt.all(of: record, logged: state.attemptLog[key] ?? []))
        }
    }

    /// The workers holding records; see ``CommandJournal/workers()``.
    public func workers() async throws -> [CommandJournalWorker] {
        CommandJournalWorker.holding(state.withLock { $0.records })
    }

    /// The depth of each queue; see ``CommandJournal/queues()``.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        let now = self.now
        return CommandJournalQueueStatistics.of(state.withLock { $0.records }, now: now)
    }

    /// Cancels `key`; see ``CommandJournal/cancel(_:reason:)``.
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        let now = self.now
        return try state.withLock { state throws(CommandJournalError) -> CommandJournalRecord in
            guard let index = state.indexByKey[key] else { throw .unknownKey(key) }
            let record = state.records[index]
            let hasChildren = state.records.contains { $0.entry.parentKey == key }
            let isMarked = state.indexByKey[CommandJournalCancellation.key(of: key)] != nil
            switch CommandJournalCancellation.plan(record, hasChildren: hasChildren, isMarked: isMarked, now: now) {
            case .refuse(let error):
                throw error
            case .unchanged:
                return record
            case .takeAndSettle:
                state.log(
                    CommandJournalAttempt(
                        number: record.attempts, owner: record.owner,
                        error: CommandJournalCancellation.reason(reason), endedAt: now), key)
                state.records[index].owner = nil
                state.records[index].status = .failed
                state.records[index].failureReason = CommandJournalCancellation.reason(reason)
                state.records[index].leaseExpiresAt = nil
                state.records[index].updatedAt = now
            case .settle:
                state.records[index].status = .failed
                state.records[index].failureReason = CommandJournalCancellation.reason(reason)
                state.records[index].leaseExpiresAt = nil
                state.records[index].updatedAt = now
            case .takeAndMark:
                if record.owner != nil {
                    state.log(
                        CommandJournalAttempt(
                            number: record.attempts, owner: record.owner,
                            error: CommandJournalCancellation.reason(reason), endedAt: now), key)
                    state.records[index].attempts += 1
                }
                state.records[index].owner = nil
                state.records[index].leaseExpiresAt = now
                state.records[index].updatedAt = now
                _ = state.insert(
                    CommandJournalCancellation.entry(of: key), now: now, owner: nil, until: nil, queue: nil)
                if let mark = state.indexByKey[CommandJournalCancellation.key(of: key)] {
                    state.records[mark].settle(.failed(reason: CommandJournalCancellation.reason(reason)), now: now)
                }
            }
            return state.records[index]
        }
    }

    /// Retries `key`; see ``CommandJournal/retry(_:)``.
    public func retry(_ key: String) async throws -> CommandJournalRecord {
        let now = self.now
        return try state.withLock { state throws(CommandJournalError) -> CommandJournalRecord in
            guard let index = state.indexByKey[key] else { throw .unknownKey(key) }
            let record = state.records[index]
            guard record.entry.parentKey == nil, record.status == .failed || record.status == .compensated else {
                throw .cannotRetry(key: key, status: record.status)
            }
            if let ended = CommandJournalAttempt.ended(record),
                state.attemptLog[key]?.contains(where: { $0.number == ended.number }) != true
            {
                state.log(ended, key)
            }
            state.records[index].status = .pending
            state.records[index].failureReason = nil
            state.records[index].owner = nil
            state.records[index].leaseExpiresAt = now
            state.records[index].updatedAt = now
            let retried = state.records[index]
            for child in state.records where child.entry.parentKey == key { state.attemptLog[child.id] = nil }
            state.records.removeAll { $0.entry.parentKey == key }
            state.indexByKey = Dictionary(
                uniqueKeysWithValues: state.records.enumerated().map { ($1.entry.idempotencyKey, $0) })
            return retried
        }
    }
}

extension InMemoryCommandJournal.State {
    /// Logs `attempt` of `key`, replacing what was logged for its number.
    mutating func log(_ attempt: CommandJournalAttempt, _ key: String) {
        attemptLog[key, default: []].removeAll { $0.number == attempt.number }
        attemptLog[key, default: []].append(attempt)
        attemptLog[key]?.sort { $0.number < $1.number }
    }
}
