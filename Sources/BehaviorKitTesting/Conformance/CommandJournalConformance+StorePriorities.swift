public import Commands

/// The priority checks that reach a store through its own API: enqueue in the application's
/// transaction, and the data of the schema before priorities.
extension CommandJournalConformance {
    /// What a store adds to the priority checks: its own ways in, which the journal protocol
    /// does not name.
    ///
    /// ```swift
    /// try await CommandJournalConformance.checkPriorities(
    ///     of: .init(
    ///         enqueueInTransaction: { clock, job, queue in … },  // the journal and the record
    ///         journalOverPreviousSchema: { clock, entry, queue in … }))
    /// ```
    public struct PriorityStore: Sendable {
        /// Opens a new journal on the clock and enqueues the job on the queue inside one
        /// transaction of the application's own, which commits; answers the journal and the
        /// record the enqueue returned.
        public typealias EnqueueInTransaction =
            @Sendable (ManualClock, QueuedJob, String) async throws -> (
                any CommandJournalManagement, CommandJournalRecord
            )
        /// Writes the entry on the queue, due at once, as the store's schema before priorities
        /// wrote it, then opens the journal (which brings the schema up to date) on the clock.
        public typealias JournalOverPreviousSchema =
            @Sendable (ManualClock, CommandJournalEntry, String) async throws -> any CommandJournalManagement

        /// Enqueue inside the application's transaction; `nil` for a store that has none.
        public var enqueueInTransaction: EnqueueInTransaction?
        /// A journal over a record written by the previous schema.
        public var journalOverPreviousSchema: JournalOverPreviousSchema

        /// The store's ways in.
        public init(
            enqueueInTransaction: EnqueueInTransaction? = nil,
            journalOverPreviousSchema: @escaping JournalOverPreviousSchema
        ) {
            self.enqueueInTransaction = enqueueInTransaction
            self.journalOverPreviousSchema = journalOverPreviousSchema
        }
    }

    /// Checks that an enqueue in the application's transaction keeps its priority, and that a
    /// record written before the store kept priorities reads and is claimed at the default
    /// (`CommandQueue.defaultPriority`); throws a ``CommandJournalConformanceFailure`` naming
    /// the first rule broken. The journals it opens are the caller's to close.
    public static func checkPriorities(of store: PriorityStore) async throws {
        if let enqueue = store.enqueueInTransaction { try await anEnqueueInATransactionKeepsItsPriority(enqueue) }
        try await aRecordOfThePreviousSchemaHasTheDefaultPriority(store)
    }

    static func anEnqueueInATransactionKeepsItsPriority(_ enqueue: PriorityStore.EnqueueInTransaction) async throws {
        let check = "an enqueue in the application's transaction keeps its priority"
        let clock = ManualClock()
        let (journal, record) = try await enqueue(
            clock, QueuedJob(entry("in-transaction"), priority: 9), "tx")
        try expect(record.priority == 9, check, "the enqueue answered priority \(record.priority)")
        _ = try await journal.enqueue(entry("outside"), queue: "tx", after: .zero, priority: 1, traceContext: nil)
        let stored = try await journal.record(forKey: "in-transaction")
        try expect(stored?.priority == 9, check, "the record reads priority \(String(describing: stored?.priority))")
        let claimed = try await journal.claim(10, from: "tx", concurrency: nil, lease: longLease).records.map(\.id)
        try expect(claimed == ["in-transaction", "outside"], check, "the claim took \(claimed)")
    }

    static func aRecordOfThePreviousSchemaHasTheDefaultPriority(_ store: PriorityStore) async throws {
        let check = "a record written before priorities reads, and is claimed, at the default priority"
        let clock = ManualClock()
        let journal = try await store.journalOverPreviousSchema(clock, entry("legacy"), "old")
        let legacy = try await journal.record(forKey: "legacy")
        try expect(
            legacy?.priority == CommandQueue.defaultPriority && legacy?.queue == "old", check,
            "the record reads \(String(describing: legacy))")
        let queue = CommandQueue("old", journal: journal)
        _ = try await queue.enqueue(entry("background"), priority: -1)
        _ = try await queue.enqueue(entry("urgent"), priority: 1)
        let claimed = try await journal.claim(10, from: "old", concurrency: nil, lease: longLease).records.map(\.id)
        try expect(claimed == ["urgent", "legacy", "background"], check, "the claim took \(claimed)")
    }
}
