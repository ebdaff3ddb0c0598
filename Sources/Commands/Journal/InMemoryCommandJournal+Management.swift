import BehaviorKitSync

extension InMemoryCommandJournal {
    /// The records passing `filter`; see ``CommandJournal/records(matching:after:limit:)``.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        state.withLock { state in
            CommandJournalPage(state.records.lazy.filter(filter.matches), after: cursor, limit: limit)
        }
    }

    /// The record `key` in full; see ``CommandJournalManagement/details(forKey:)``.
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard StoredKey.isStorable(key) else { return nil }
        return state.withLock { state in
            guard let index = state.indexByKey[key] else { return nil }
            let record = state.records[index]
            return CommandJournalRecordDetails(
                record: record, children: state.records.filter { $0.entry.parentKey == key },
                attempts: CommandJournalAttempt.all(of: record, logged: state.attemptLog[key] ?? []))
        }
    }

    /// The workers holding records; see ``CommandJournalManagement/workers()``.
    public func workers() async throws -> [CommandJournalWorker] {
        CommandJournalWorker.holding(state.withLock { $0.records })
    }

    /// The depth of each queue; see ``CommandJournalManagement/queues()``.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        let now = self.now
        return CommandJournalQueueStatistics.of(state.withLock { $0.records }, now: now)
    }

    /// The queues paused now; see ``CommandJournalManagement/pausedQueues()``.
    public func pausedQueues() async throws -> Set<String> {
        state.withLock { $0.paused }
    }
}
