extension InMemoryCommandJournal {
    /// Retries the failed and compensated roots that pass `filter`, at most `limit`, each in a
    /// commit of its own; see ``CommandJournalManagement/retry(matching:after:limit:)``.
    public func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await JournalBulkAction.retry(self, matching: filter, after: cursor, limit: limit)
    }

    /// Cancels the pending roots that pass `filter`, at most `limit`, each in a commit of its
    /// own; see ``CommandJournalManagement/cancel(matching:reason:after:limit:)``.
    public func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await JournalBulkAction.cancel(self, matching: filter, reason: reason, after: cursor, limit: limit)
    }
}
