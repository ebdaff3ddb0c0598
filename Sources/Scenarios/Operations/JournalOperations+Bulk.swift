public import Commands

extension JournalOperations {
    /// A bulk action of `behaviorkit journal retry|cancel --filter`.
    public enum BulkAction: Sendable {
        /// Retry the failed and compensated records that pass the filter.
        case retry
        /// Cancel the pending records that pass the filter, for the reason.
        case cancel(reason: String)
    }

    /// Retries or cancels the records that pass `filter` after `cursor`, at most `limit`, and
    /// prints what changed, what was refused, and the cursor to go on with.
    ///
    /// - Throws: `JournalBulkActionError` when the filter lists only statuses the action
    ///   cannot act on.
    public static func act(
        _ action: BulkAction, _ journal: any CommandJournalManagement, matching filter: CommandJournalFilter,
        after cursor: Int64?, limit: Int, format: Format, console: Console
    ) async throws {
        let result: JournalBulkResult
        let verb: String
        switch action {
        case .retry:
            result = try await journal.retry(matching: filter, after: cursor, limit: limit)
            verb = "retried"
        case .cancel(let reason):
            result = try await journal.cancel(matching: filter, reason: reason, after: cursor, limit: limit)
            verb = "cancelled"
        }
        switch format {
        case .json:
            struct Refusal: Encodable {
                let key: String
                let reason: String
            }
            struct Bulk: Encodable {
                let changed: [JournalRecordView]
                let refused: [Refusal]
                let nextCursor: Int64?
            }
            console.print(
                try json(
                    Bulk(
                        changed: result.changed.map(JournalRecordView.init),
                        refused: result.refused.map { Refusal(key: $0.key, reason: $0.reason) },
                        nextCursor: result.nextCursor)))
        case .text:
            for line in JournalText.lines(result.changed) { console.print(line) }
            for refusal in result.refused { console.print("refused \(refusal)") }
            let count = result.changed.count
            console.print(
                "\(verb) \(count) \(count == 1 ? "record" : "records")"
                    + (result.refused.isEmpty ? "" : ", \(result.refused.count) refused"))
            if let next = result.nextCursor { console.print("more: --after \(next)") }
        }
    }
}
