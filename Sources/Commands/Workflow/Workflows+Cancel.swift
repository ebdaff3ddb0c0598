import Logging

extension Workflows {
    /// Cancels the run `key` for `reason`, and its children with it: the run stops before its
    /// next step, sleep or receive and settles failed (``CommandJournalManagement/cancel(_:reason:)``),
    /// and so does every child run it started that has not settled, and theirs in turn (each
    /// child's cancellation names its parent). Returns the run's record as it is now.
    ///
    /// ```swift
    /// try await workflows.cancel("order-42", reason: "the customer left")
    /// // order-42 and order-42-pick settle failed; a worker that held either stops
    /// ```
    ///
    /// A cancellation made elsewhere (the console, the management API) reaches a child when it
    /// is next taken up (a message, its deadline, a wake): it then settles failed, cancelled,
    /// without running further. A child that a worker runs at the moment of the cancellation
    /// cannot be stopped (``CommandJournalError/cannotCancel(key:status:reason:)``): it stops at
    /// its next wait, or finishes, and its result reaches no one.
    ///
    /// - Throws: ``CommandJournalError/unknownKey(_:)``;
    ///   ``CommandJournalError/cannotCancel(key:status:reason:)`` for a run that settled, or that
    ///   a worker runs at this moment (cancel it while it waits);
    ///   ``CommandJournalError/unsupported(operation:)`` on a journal that is no
    ///   ``CommandJournalManagement`` (every journal of BehaviorKit is one).
    @discardableResult
    public func cancel(_ key: String, reason: String) async throws -> CommandJournalRecord {
        let record = try await queue.management("cancelling a workflow").cancel(key, reason: reason)
        await cancelChildren(of: key, among: try await journal.records(parentKey: key))
        return record
    }

    /// Whether the parent of the child run of `plan` was cancelled: the child then stops.
    func parentWasCancelled(_ plan: WorkflowPlan) async throws -> String? {
        guard let parent = plan.parent, let record = try await journal.record(forKey: parent),
            record.status == .failed, record.failureReason?.hasPrefix(CommandJournalCancellation.reason("")) == true
        else { return nil }
        return parent
    }

    /// Cancels the child runs that the run `key` started (its start records among `records`),
    /// unless they settled. A failure is logged: the child then runs on.
    func cancelChildren(of key: String, among records: [CommandJournalRecord]) async {
        for record in records where record.entry.kind == WorkflowRecord.startKind {
            let child = String(decoding: record.entry.payload, as: UTF8.self)
            do {
                _ = try await queue.management("cancelling a workflow's child").cancel(
                    child, reason: "its parent '\(key)' was cancelled")
            } catch CommandJournalError.cannotCancel(_, let status, _) where status != .pending {
                continue
            } catch {
                invoker.logger?.warning(
                    "cancelling a cancelled workflow's child failed; the child runs on",
                    metadata: ["key": "\(key)", "child": "\(child)", "error": "\(error)"])
            }
        }
    }
}
