extension CommandJournal {
    /// Releases `key` with ``release(_:lease:after:)``; the failure is not kept: this journal
    /// keeps no attempts.
    public func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String) async throws {
        try await release(key, lease: lease, after: delay)
    }

    /// Keeps nothing: this journal keeps no attempts.
    public func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {}

    /// Filters ``allRecords()``: correct, and a read of the whole journal.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        CommandJournalPage(try await allRecords().lazy.filter(filter.matches), after: cursor, limit: limit)
    }

    /// The record and its children; of its attempts' errors, only the last (its failure reason).
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard let record = try await record(forKey: key) else { return nil }
        return CommandJournalRecordDetails(
            record: record, children: try await records(parentKey: key),
            attempts: CommandJournalAttempt.all(of: record, logged: []))
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``.
    public func workers() async throws -> [CommandJournalWorker] {
        throw CommandJournalError.unsupported(operation: "workers()")
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``.
    public func queues() async throws -> [CommandJournalQueueStatistics] {
        throw CommandJournalError.unsupported(operation: "queues()")
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``: a cancellation must be one atomic change.
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        throw CommandJournalError.unsupported(operation: "cancel(_:reason:)")
    }

    /// Throws ``CommandJournalError/unsupported(operation:)``: a retry must be one atomic change.
    public func retry(_ key: String) async throws -> CommandJournalRecord {
        throw CommandJournalError.unsupported(operation: "retry(_:)")
    }
}
