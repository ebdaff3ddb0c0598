import Logging

extension Workflows {
    /// Cancels the run `key` for `reason`, and its children with it: the run stops at its next
    /// step, sleep or receive and settles failed (``CommandJournalManagement/cancel(_:reason:)``),
    /// and so does every child run it started that has not settled, and theirs in turn (each
    /// child's cancellation names its parent). Returns the run's record as it is now.
    ///
    /// ```swift
    /// try await workflows.cancel("order-42", reason: "the customer left")
    /// // order-42 and order-42-pick settle failed; a worker or caller that held either stops
    /// ```
    ///
    /// A run that waits settles at once, unless one of its finished steps has a compensation
    /// (`WorkflowContext.step(_:retry:_:compensate:)`): it is marked, falls due, and the
    /// worker that takes it next compensates its finished steps, newest first, once its
    /// children are cancelled, and settles it compensated. A run that a worker, or its caller
    /// (``run(_:key:input:)``), runs at the moment is taken from it: its code gets
    /// ``WorkflowError/cancelled(key:reason:)`` from its next step, sleep or receive (the step
    /// under way finishes; in another process, the cancellation is seen at its next write, or
    /// within a third of a lease), no further step runs, and the attempt takes the run back to
    /// settle it failed, cancelled (or compensated, as above): its caller's call throws
    /// ``WorkflowError/failed(key:reason:)`` with the cancellation's reason (or
    /// ``WorkflowError/compensated(key:reason:)``). A cancellation made elsewhere (the console, the
    /// management API) reaches a child when it is next taken up (a message, its deadline, a
    /// wake): it then settles failed, cancelled, without running further.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotCancel(key:status:reason:)`` for a run that settled;
    ///   ``CommandJournalError/unsupported(operation:)`` on a journal that is no
    ///   ``CommandJournalManagement`` (every journal of BehaviorKit is one).
    @discardableResult
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        let record = try await queue.management("cancelling a workflow").cancel(key, reason: reason)
        // An attempt of this process that held it stops at its next step, without a journal look.
        invoker.keeper.lose(key, below: record.attempts)
        await cancelChildren(of: key, among: try await journal.records(parentKey: key))
        return record
    }

    /// Whether the parent of the child run of `plan` was cancelled (settled so, or marked, to
    /// be compensated): the child then stops.
    func parentWasCancelled(_ plan: WorkflowPlan) async throws -> String? {
        guard let parent = plan.parent, let record = try await journal.record(forKey: parent) else { return nil }
        if record.status == .failed, CommandJournalCancellation.isCancellation(record.failureReason) { return parent }
        guard try await journal.record(forKey: CommandJournalCancellation.key(of: parent)) != nil else { return nil }
        return parent
    }

    /// Cancels the child runs that the run `key` started (its start records among `records`),
    /// unless they settled. A failure is logged: the child then runs on.
    func cancelChildren(of key: String, among records: [CommandJournalRecord]) async {
        let management: any CommandJournalManagement
        do {
            management = try queue.management("cancelling a workflow's children")
        } catch {
            invoker.logger?.warning(
                "cancelling a cancelled workflow's children failed; they run on",
                metadata: ["key": "\(key)", "error": "\(error)"])
            return
        }
        for (child, error) in await management.cancelWorkflowChildren(of: key, among: records) {
            invoker.logger?.warning(
                "cancelling a cancelled workflow's child failed; the child runs on",
                metadata: ["key": "\(key)", "child": "\(child)", "error": "\(error)"])
        }
    }
}

extension CommandJournalManagement {
    /// Cancels the workflow run `key` for `reason`, and the child runs it started that have not
    /// settled, as ``Workflows/cancel(_:reason:)`` does, from a process that runs no workflows
    /// (an operator's tool: `behaviorkit journal workflows cancel`). Returns the run's record as
    /// it is now, and the children that could not be cancelled, with why.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotCancel(key:status:reason:)`` for a run that settled;
    ///   ``WorkflowError/invalidKey(key:reason:)`` for a record that is no workflow's run.
    public func cancelWorkflowRun(
        _ key: String, reason: String
    ) async throws -> (run: CommandJournalRecord, uncancelledChildren: [(key: String, error: any Error)]) {
        if let record = try await record(forKey: key), record.entry.kind != WorkflowRecord.runKind {
            throw WorkflowError.invalidKey(
                key: key, reason: "it is a '\(record.entry.kind)' record, not a workflow's run")
        }
        let run = try await cancel(key, reason: reason)
        return (run, await cancelWorkflowChildren(of: key, among: try await records(parentKey: key)))
    }

    /// Cancels the child runs that the run `key` started (its start records among `records`),
    /// unless they settled; answers those it could not cancel, with why.
    func cancelWorkflowChildren(
        of key: String, among records: [CommandJournalRecord]
    ) async -> [(key: String, error: any Error)] {
        var failures: [(key: String, error: any Error)] = []
        for record in records where record.entry.kind == WorkflowRecord.startKind {
            let child = String(decoding: record.entry.payload, as: UTF8.self)
            do {
                _ = try await cancel(child, reason: "its parent '\(key)' was cancelled")
            } catch CommandJournalError.cannotCancel(_, let status, _) where status != .pending {
                continue
            } catch {
                failures.append((child, error))
            }
        }
        return failures
    }
}
