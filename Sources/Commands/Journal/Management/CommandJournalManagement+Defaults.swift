extension CommandJournalManagement {
    /// The record and its children; of its attempts' errors, only the last (its failure reason).
    public func details(forKey key: String) async throws -> CommandJournalRecordDetails? {
        guard let record = try await record(forKey: key) else { return nil }
        return CommandJournalRecordDetails(
            record: record, children: try await records(parentKey: key),
            attempts: CommandJournalAttempt.all(of: record, logged: []))
    }
}
