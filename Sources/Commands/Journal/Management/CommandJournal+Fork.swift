extension CommandJournal {
    /// Runs the work of the settled root record `key` again, from its start, under `newKey`: a
    /// new record with the same kind and payload, due at once on `queue` (by default the queue
    /// the record ran on), for that queue's worker to claim. The record forked stays as it is,
    /// with its steps and attempts, so that both runs can be read side by side. (``CommandJournalManagement/retry(_:)``
    /// is the other way: a new attempt of the same record.)
    ///
    /// ```swift
    /// let copy = try await journal.fork("order-42", as: "order-42/fork-1")
    /// ```
    ///
    /// One write (an ``CommandJournal/enqueue(_:queue:after:)``): forking again into the same `newKey` returns
    /// the record the first fork wrote and runs nothing twice. Any record may be forked once it
    /// settled (done, failed or compensated): forking a done one runs its work a second time,
    /// which is what a fork is for; the new run's commands must be safe to repeat under a new key.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotFork(key:reason:)`` for a pending record, a step, a
    ///   `newKey` equal to `key`, or a record that ran on no queue when `queue` is `nil`;
    ///   ``CommandJournalError/conflictingEntry(key:)`` when `newKey` holds other work.
    @discardableResult
    public func fork(_ key: String, as newKey: String, queue: String? = nil) async throws -> CommandJournalRecord {
        guard let record = try await record(forKey: key) else { throw CommandJournalError.unknownKey(key) }
        guard record.entry.parentKey == nil else {
            throw CommandJournalError.cannotFork(key: key, reason: "it is a step; fork its transaction")
        }
        guard record.isSettled else {
            throw CommandJournalError.cannotFork(key: key, reason: "it is pending and may still run")
        }
        guard newKey != key else {
            throw CommandJournalError.cannotFork(key: key, reason: "the new key is the record's own")
        }
        guard let queue = queue ?? record.queue else {
            throw CommandJournalError.cannotFork(
                key: key, reason: "it ran on no queue (its caller ran it); name the queue the fork goes to")
        }
        let entry = CommandJournalEntry(idempotencyKey: newKey, kind: record.entry.kind, payload: record.entry.payload)
        return try await enqueue(entry, queue: queue, after: .zero)
    }
}
