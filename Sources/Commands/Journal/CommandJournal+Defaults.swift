extension CommandJournal {
    /// Does nothing: a journal without connections has nothing to release.
    public func close() async throws {}

    /// `false`: a renewal under way does not stop the watchdog of a worker.
    public var leasesOutlastWriteStalls: Bool { false }

    /// Makes `changes` one after another with ``append(_:lease:)`` and ``settle(_:as:lease:)``:
    /// correct (a child written pending "may have run") but not atomic, and one write each. A
    /// journal should make them in one commit.
    public func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        for change in changes {
            if let entry = change.entry, entry.parentKey != nil {
                _ = try await append(entry, lease: lease)
            }
            try await settle(change.key, as: change.settlement, lease: lease)
        }
    }

    /// Claims due records; see ``CommandJournal/claim(_:from:concurrency:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await claim(limit, from: queue, concurrency: concurrency, takingOverFrom: nil, lease: lease)
    }

    /// Enqueues `entry` with ``CommandJournal/enqueue(_:queue:after:)`` and drops `traceContext`: a journal
    /// that keeps the caller's trace context implements this.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await enqueue(entry, queue: queue, after: delay)
    }

    /// Enqueues `entry` with ``CommandJournal/enqueue(_:queue:after:traceContext:)`` at the
    /// default priority; refuses another priority, rather than drop it: a journal that keeps
    /// priorities implements this.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` for a priority other than
    ///   ``CommandQueue/defaultPriority``.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        guard priority == CommandQueue.defaultPriority else {
            throw CommandJournalError.unsupported(
                operation: "enqueue at priority \(priority): \(type(of: self)) keeps no priorities")
        }
        return try await enqueue(entry, queue: queue, after: delay, traceContext: traceContext)
    }

    /// Enqueues `entry` with ``CommandJournal/enqueue(_:queue:after:priority:traceContext:)``
    /// without a partition; refuses one, rather than drop it: a journal that keeps partitions
    /// implements this.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` for a partition.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        if let partition {
            throw CommandJournalError.unsupported(
                operation: "enqueue in partition '\(partition)': \(type(of: self)) keeps no partitions")
        }
        return try await enqueue(entry, queue: queue, after: delay, priority: priority, traceContext: traceContext)
    }

    /// Claims with ``CommandJournal/claim(_:from:concurrency:takingOverFrom:lease:)`` when there
    /// is no limit per partition; refuses one, rather than exceed it: a journal that keeps
    /// partitions implements this.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` for a `perPartition`.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim {
        if let perPartition {
            throw CommandJournalError.unsupported(
                operation: "claim at most \(perPartition) per partition: \(type(of: self)) keeps no partitions")
        }
        return try await claim(limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
    }

    /// Claims due records, at most `perPartition` running per partition; see
    /// ``CommandJournal/claim(_:from:concurrency:perPartition:takingOverFrom:lease:)``.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await claim(
            limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: nil, lease: lease)
    }

    /// Enqueues `jobs` one after another with ``CommandJournal/enqueue(_:queue:after:priority:traceContext:)``,
    /// once every key passed ``StoredKey``'s rule; see ``CommandJournal/enqueue(contentsOf:queue:traceContext:)``.
    public func enqueue(
        contentsOf jobs: [QueuedJob], queue: String, traceContext: [String: String]?
    ) async throws -> [Result<CommandJournalRecord, any Error>] {
        try StoredKey.check(queue, "queue name")
        for job in jobs { try job.entry.checkKeys() }
        var answers: [Result<CommandJournalRecord, any Error>] = []
        answers.reserveCapacity(jobs.count)
        for job in jobs {
            do {
                answers.append(
                    .success(
                        try await enqueue(
                            job.entry, queue: queue, after: job.delay, priority: job.priority,
                            partition: job.partition, traceContext: traceContext)))
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }
}
