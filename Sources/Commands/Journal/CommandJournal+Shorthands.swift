/// The calls a worker or a caller makes most, each the one requirement with what it does not
/// name left out.
extension CommandJournal {
    /// Releases `key` without a failure; see ``CommandJournal/release(_:lease:after:failure:)``.
    public func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        try await release(key, lease: lease, after: delay, failure: nil)
    }

    /// Claims due records, no limit per partition, taking over from no worker known to have
    /// stopped; see ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await claim(
            limit, from: queue, concurrency: concurrency, perPartition: nil, takingOverFrom: nil, lease: lease)
    }

    /// Claims due records with no limit per partition; see
    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await claim(
            limit, from: queue, concurrency: concurrency, perPartition: nil, takingOverFrom: deadOwner, lease: lease)
    }

    /// Claims due records, at most `perPartition` running per partition, taking over from no
    /// worker known to have stopped; see
    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await claim(
            limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: nil, lease: lease)
    }

    /// Enqueues `entry` at the default priority, in no partition, without a trace context; see
    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            entry, queue: queue, after: delay, priority: CommandQueue.defaultPriority, partition: nil, traceContext: nil
        )
    }

    /// Enqueues `entry` at the default priority, in no partition, keeping `traceContext`; see
    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            entry, queue: queue, after: delay, priority: CommandQueue.defaultPriority, partition: nil,
            traceContext: traceContext)
    }

    /// Enqueues `entry` at `priority`, in no partition, keeping `traceContext`; see
    /// ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: nil, traceContext: traceContext)
    }
}
