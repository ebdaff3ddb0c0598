extension CommandJournal {
    /// Does nothing: a journal without connections has nothing to release.
    public func close() async throws {}

    /// `false`: a renewal under way does not stop the watchdog of a worker.
    public var leasesOutlastWriteStalls: Bool { false }

    /// Changes nothing and answers `false`: the record is taken when it falls due. A journal
    /// that can make a waiting record due early implements it.
    public func wake(_ key: String) async throws -> Bool { false }

    /// Enqueues `entry` on `queue`, due now, then begins it: correct, and two writes; see
    /// ``CommandJournal/begin(_:queue:lease:)``.
    public func begin(
        _ entry: CommandJournalEntry, queue: String, lease: JournalLease
    ) async throws -> CommandJournalBegin {
        _ = try await enqueue(
            entry, queue: queue, after: .zero, priority: CommandQueue.defaultPriority, partition: nil,
            traceContext: nil)
        return try await begin(entry, lease: lease)
    }

    /// Filters ``allRecords()``: correct, and a read of the whole journal.
    public func records(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> CommandJournalPage {
        CommandJournalPage(try await allRecords().lazy.filter(filter.matches), after: cursor, limit: limit)
    }

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

    /// Enqueues `jobs` one after another with ``CommandJournal/enqueue(_:queue:after:priority:partition:traceContext:)``,
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
