extension CommandJournalManagement {
    /// The record and its children; of its attempts' errors, only the last (its failure reason).
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard let record = try await record(forKey: key) else { return nil }
        return CommandJournalRecordDetails(
            record: record, children: try await records(parentKey: key),
            attempts: CommandJournalAttempt.all(of: record, logged: []))
    }

    /// Retries the failed and compensated roots that pass `filter`, at most `limit`, each in a
    /// commit of its own, over ``CommandJournal/records(matching:after:limit:)`` and
    /// ``CommandJournalManagement/retry(_:)``; see
    /// ``CommandJournalManagement/retry(matching:after:limit:)``.
    public func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await JournalBulkAction.retry(self, matching: filter, after: cursor, limit: limit)
    }

    /// Cancels the pending roots that pass `filter`, at most `limit`, each in a commit of its
    /// own, over ``CommandJournal/records(matching:after:limit:)`` and
    /// ``CommandJournalManagement/cancel(_:reason:)``; see
    /// ``CommandJournalManagement/cancel(matching:reason:after:limit:)``.
    public func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await JournalBulkAction.cancel(self, matching: filter, reason: reason, after: cursor, limit: limit)
    }
}
