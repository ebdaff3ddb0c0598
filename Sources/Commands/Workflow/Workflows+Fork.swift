extension Workflows {
    /// Runs the stopped run `key` of `workflow` again from `position` under `newKey`, as
    /// ``CommandJournalManagement/forkWorkflowRun(_:from:as:)`` does, and returns the new run's
    /// handle: a worker runs it.
    ///
    /// ```swift
    /// let retried = try await workflows.fork(checkout, key: "order-42", from: 2, as: "order-42-retry")
    /// let receipt = try await retried.result()  // the steps before position 2 did not run again
    /// ```
    ///
    /// - Throws: what ``CommandJournalManagement/forkWorkflowRun(_:from:as:)`` throws.
    @discardableResult
    public func fork<Input, Output>(
        _ workflow: Workflow<Input, Output>, key: String, from position: Int, as newKey: String
    ) async throws -> WorkflowHandle<Output> {
        try await queue.management("forking a workflow").forkWorkflowRun(key, from: position, as: newKey)
        return handle(workflow, key: newKey)
    }
}

extension CommandJournalManagement {
    /// Runs the settled workflow run `key` (done, failed, compensated or cancelled) again from
    /// `position` under `newKey`, as DBOS's `fork_workflow` does: a new run of the same
    /// workflow and input, on the same queue, whose positions before `position` are copies of
    /// the original's (its steps' outputs and errors, its sleeps, receives, children), due at
    /// once. A worker then runs the workflow's current code: the copied positions answer from
    /// the copy without running, and everything from `position` on runs again. The new run's
    /// result is its own; the original stays as it was. (``CommandJournal/fork(_:as:queue:)``
    /// runs a record again from its start; ``CommandJournalManagement/retry(_:)`` runs it again
    /// under its own key.)
    ///
    /// ```swift
    /// try await journal.forkWorkflowRun("order-42", from: 2, as: "order-42-retry")
    /// ```
    ///
    /// The new run is written held by the fork, its copies in one commit, then released: no
    /// worker takes it half copied. A copied sleep that had ended does not sleep again. A
    /// child run is forked as a run of its own (it wakes no parent). Returns the new run's record.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``; ``CommandJournalError/cannotFork(key:reason:)``
    ///   for a run still pending, a `position` below 0 or past the positions the run settled,
    ///   or a `newKey` in use; ``WorkflowError/invalidKey(key:reason:)`` for a record that is no
    ///   workflow's run, or a `newKey` with a `"/"`.
    @discardableResult
    public func forkWorkflowRun(
        _ key: String, from position: Int, as newKey: String
    ) async throws
        -> CommandJournalRecord
    {
        guard let record = try await record(forKey: key) else { throw CommandJournalError.unknownKey(key) }
        guard record.entry.kind == WorkflowRecord.runKind, var plan = WorkflowPlan.of(record) else {
            throw WorkflowError.invalidKey(
                key: key, reason: "it is a '\(record.entry.kind)' record, not a workflow's run")
        }
        _ = try WorkflowRecord.checked(newKey, as: "run's key")
        guard record.isSettled else {
            throw CommandJournalError.cannotFork(key: key, reason: "it is pending and may still run")
        }
        guard let queue = record.queue else {
            throw CommandJournalError.cannotFork(key: key, reason: "it ran on no queue")
        }
        let positions = WorkflowRecord.children(try await records(parentKey: key), of: key)
        var settled = 0
        while positions[settled]?.isSettled == true { settled += 1 }
        guard position >= 0, position <= settled else {
            throw CommandJournalError.cannotFork(
                key: key,
                reason: "position \(position) is not one of the \(settled) positions the run settled, or the next")
        }
        guard newKey != key, try await self.record(forKey: newKey) == nil else {
            throw CommandJournalError.cannotFork(key: key, reason: "the key '\(newKey)' is in use")
        }
        plan.parent = nil
        let entry = try CommandRegistry.entry(kind: WorkflowRecord.runKind, arguments: plan, key: newKey)
        let lease = JournalLease(owner: "behaviorkit.fork \(newKey)", duration: .seconds(60))
        guard case .started(let started) = try await begin(entry, queue: queue, lease: lease) else {
            throw CommandJournalError.cannotFork(key: key, reason: "the key '\(newKey)' is in use")
        }
        let fenced = lease.fenced(by: started)
        do {
            let copies = try (0..<position).compactMap {
                try WorkflowRecord.copy(positions[$0], at: $0, to: newKey, ended: positions[$0 + 1] != nil)
            }
            if !copies.isEmpty { try await settle(copies, lease: fenced) }
            try await release(newKey, lease: fenced, after: .zero)
        } catch {
            // Not left to run from its start: cancelled, naming why.
            _ = try? await cancel(newKey, reason: "its fork from '\(key)' failed: \(error)")
            throw error
        }
        return try await self.record(forKey: newKey) ?? started
    }
}

extension WorkflowRecord {
    /// The settlement that copies `record`, the position `position` of a run, to the run
    /// `newKey`; a sleep that `ended` (the run went past it) is copied ended.
    static func copy(
        _ record: CommandJournalRecord?, at position: Int, to newKey: String, ended: Bool
    ) throws -> CommandJournalChange? {
        guard let record else { return nil }
        let entry = CommandJournalEntry(
            idempotencyKey: childKey(newKey, position), kind: record.entry.kind, payload: record.entry.payload,
            parentKey: newKey)
        var output = record.output
        if ended, record.entry.kind == sleepKind, record.entry.payload == Array("sleep".utf8) {
            output = try StepOutput.encode(Int64(0), key: entry.idempotencyKey)
        }
        switch record.status {
        case .done: return .settle(entry, as: .done(output: output))
        case .failed: return .settle(entry, as: .failed(reason: record.failureReason ?? "failed"))
        case .compensated: return .settle(entry, as: .compensated)
        case .pending: return nil
        }
    }
}
