/// The bulk actions of every journal, written once over its one-record actions: one page of
/// the records that pass the narrowed filter (``CommandJournal/records(matching:after:limit:)``),
/// each acted on in a commit of its own.
package enum JournalBulkAction {
    /// ``CommandJournalManagement/retry(matching:after:limit:)`` on `journal`.
    package static func retry(
        _ journal: some CommandJournalManagement, matching filter: CommandJournalFilter, after cursor: Int64?,
        limit: Int
    ) async throws -> JournalBulkResult {
        let narrowed = try narrow(filter, to: [.failed, .compensated], action: "retry")
        return try await act(journal, narrowed, cursor, limit) { try await journal.retry($0) }
    }

    /// ``CommandJournalManagement/cancel(matching:reason:after:limit:)`` on `journal`.
    package static func cancel(
        _ journal: some CommandJournalManagement, matching filter: CommandJournalFilter, reason: String,
        after cursor: Int64?,
        limit: Int
    ) async throws -> JournalBulkResult {
        let narrowed = try narrow(filter, to: [.pending], action: "cancel")
        return try await act(journal, narrowed, cursor, limit) { try await journal.cancel($0, reason: reason) }
    }

    /// `filter` on roots of the statuses `acted` only.
    static func narrow(
        _ filter: CommandJournalFilter, to acted: Set<CommandJournalStatus>, action: String
    ) throws(JournalBulkActionError) -> CommandJournalFilter {
        var narrowed = filter
        narrowed.rootsOnly = true
        narrowed.statuses = filter.statuses.isEmpty ? acted : filter.statuses.intersection(acted)
        guard !narrowed.statuses.isEmpty else {
            throw .nothingToAct(action: action, statuses: filter.statuses.sorted { $0.rawValue < $1.rawValue })
        }
        return narrowed
    }

    private static func act(
        _ journal: some CommandJournalManagement, _ filter: CommandJournalFilter, _ cursor: Int64?, _ limit: Int,
        _ action: (String) async throws -> CommandJournalRecord
    ) async throws -> JournalBulkResult {
        let page = try await journal.records(matching: filter, after: cursor, limit: max(1, limit))
        var result = JournalBulkResult(changed: [], refused: [], nextCursor: page.nextCursor)
        for record in page.records {
            try Task.checkCancellation()
            do {
                result.changed.append(try await action(record.id))
            } catch let error as CommandJournalError {
                result.refused.append(.init(key: record.id, reason: "\(error)"))
            }
        }
        return result
    }
}
