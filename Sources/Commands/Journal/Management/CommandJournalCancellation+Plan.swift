#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension CommandJournalCancellation {
    /// What a cancellation does to a record: the rule of ``CommandJournalManagement/cancel(_:reason:)``,
    /// which every journal applies inside its own atomic change.
    package enum Plan: Sendable, Hashable {
        /// Refuse, with this error.
        case refuse(CommandJournalError)
        /// A transaction already marked: nothing changes.
        case unchanged
        /// Settle it failed, "cancelled": it never runs.
        case settle
        /// A command whose worker's lease ended (the worker stopped): settle it failed,
        /// "cancelled", logging the attempt it ends; settled, it takes no write of that attempt.
        case takeAndSettle
        /// Take it from its worker (a new fencing token when one holds it), mark it cancelled,
        /// and make it due now, so that the next worker compensates it (a transaction) or
        /// settles it cancelled (a workflow's run).
        case takeAndMark
    }

    /// The key of the mark a workflow's run carries once one of its steps with a compensation
    /// finished: cancelled, such a run is marked (``Plan/takeAndMark``) even while it waits,
    /// so that the worker that takes it next compensates it. Each journal looks it up as it
    /// cancels (`compensates` of ``plan(_:hasChildren:isMarked:compensates:now:)``).
    package static func compensationsKey(of key: String) -> String { "\(key)/behaviorkit.compensations" }

    /// The plan for `record` at `now`, which has children (steps) or not, is marked cancelled
    /// or not, and (a workflow's run) has steps to compensate or not.
    package static func plan(
        _ record: CommandJournalRecord, hasChildren: Bool, isMarked: Bool, compensates: Bool = false, now: Date
    ) -> Plan {
        let key = record.id
        guard record.entry.parentKey == nil else {
            return .refuse(
                .cannotCancel(key: key, status: record.status, reason: "it is a step: cancel its transaction"))
        }
        guard record.status == .pending else {
            return .refuse(.cannotCancel(key: key, status: record.status, reason: "it settled already"))
        }
        if isMarked { return .unchanged }
        // A run with steps to compensate: the next attempt compensates them, then settles it.
        if compensates && record.entry.kind == WorkflowRecord.runKind { return .takeAndMark }
        let isTransaction = record.entry.kind == transactionKind
        if record.owner == nil && !(isTransaction && hasChildren) { return .settle }
        guard isTransaction else {
            if let expiry = record.leaseExpiresAt, expiry <= now { return .takeAndSettle }
            // A workflow's run stops before its next step, sleep or receive; the attempt that
            // takes it next (its caller, or a worker) settles it cancelled.
            if record.entry.kind == WorkflowRecord.runKind { return .takeAndMark }
            return .refuse(
                .cannotCancel(
                    key: key, status: record.status,
                    reason: "worker '\(record.owner ?? "")' runs it now, and a command has no step to stop before; "
                        + "let it settle, or cancel it while it waits"))
        }
        return .takeAndMark
    }
}

extension CommandJournalCancellation {
    /// One write of a cancellation, a primitive every journal has: the plan
    /// (``plan(_:hasChildren:isMarked:compensates:now:)``) is turned into these once
    /// (``writes(_:hasChildren:isMarked:compensates:reason:now:)``), and each journal makes them
    /// in order, inside its own atomic change.
    package enum Write: Sendable, Hashable {
        /// Log `attempt`, the one the cancellation ends.
        case logAttempt(CommandJournalAttempt)
        /// Settle the record failed for `reason`, out of any worker's hands (no owner, no lease).
        case settleFailed(reason: String)
        /// Take the record from its worker (a new fencing token when one held it) and make it due now.
        case takeFromWorker
        /// Write the record's cancellation mark (``entry(of:)``), failed for `reason`.
        case mark(reason: String)
    }

    /// The writes that cancel `record` at `now` for `reason` (the text to store: ``reason(_:)``),
    /// in order: none when it is marked cancelled already.
    ///
    /// - Throws: the refusal of the plan (a step, a settled record, a command its worker runs).
    package static func writes(
        _ record: CommandJournalRecord, hasChildren: Bool, isMarked: Bool, compensates: Bool, reason: String, now: Date
    ) throws(CommandJournalError) -> [Write] {
        let ended = CommandJournalAttempt(number: record.attempts, owner: record.owner, error: reason, endedAt: now)
        switch plan(record, hasChildren: hasChildren, isMarked: isMarked, compensates: compensates, now: now) {
        case .refuse(let error): throw error
        case .unchanged: return []
        case .settle: return [.settleFailed(reason: reason)]
        case .takeAndSettle: return [.logAttempt(ended), .settleFailed(reason: reason)]
        case .takeAndMark:
            return (record.owner == nil ? [] : [.logAttempt(ended)]) + [.takeFromWorker, .mark(reason: reason)]
        }
    }
}

extension CommandJournalAttempt {
    /// The rule of ``CommandJournalManagement/retry(_:)``, which every journal applies inside
    /// its own atomic change: only a root record that failed or was compensated is retried.
    /// Answers the attempt that ended as it settled, for the journal to log unless it is logged.
    ///
    /// - Throws: ``CommandJournalError/cannotRetry(key:status:)`` for a step or a record not
    ///   failed or compensated.
    package static func endedBeforeRetry(
        _ record: CommandJournalRecord
    ) throws(CommandJournalError)
        -> CommandJournalAttempt?
    {
        guard record.entry.parentKey == nil, record.status == .failed || record.status == .compensated else {
            throw .cannotRetry(key: record.id, status: record.status)
        }
        return ended(record)
    }

    /// The attempt that ended as `record` settled failed (with its error) or compensated; `nil`
    /// for a record that never ran.
    package static func ended(_ record: CommandJournalRecord) -> CommandJournalAttempt? {
        guard record.attempts > 0, record.isSettled else { return nil }
        return CommandJournalAttempt(
            number: record.attempts, owner: record.owner,
            error: record.status == .failed ? record.failureReason : nil, endedAt: record.updatedAt)
    }
}
