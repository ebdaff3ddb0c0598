import Logging
import Metrics
import Tracing

/// The metric labels of durable work (see the Observability article).
enum DurableMetric {
    static let transactions = "behaviorkit_transactions"
    static let transactionDuration = "behaviorkit_transaction_duration_seconds"
    static let commands = "behaviorkit_commands"
    static let commandDuration = "behaviorkit_command_duration_seconds"
    static let recoveryRecords = "behaviorkit_recovery_records"
    static let recoveryDuration = "behaviorkit_recovery_duration_seconds"
    static let queueClaimed = "behaviorkit_queue_claimed"
    static let queueTakenOver = "behaviorkit_queue_taken_over"
    static let queueRecords = "behaviorkit_queue_records"
    static let queueClaimErrors = "behaviorkit_queue_claim_errors"
    static let workflowAttempts = "behaviorkit_workflow_attempts"
    static let workflowAttemptDuration = "behaviorkit_workflow_attempt_duration_seconds"
}

extension DurableInstruments {
    /// Counts, times, traces and logs how durable transaction `name` (`key`) ended.
    func transactionEnded(
        _ name: String, key: String, _ outcome: DurableOutcome, error: (any Error)? = nil, duration: Duration?,
        span: (any Span)?
    ) {
        guard
            case let (logger, metadata)? = ended(
                outcome.rawValue, span: span, counting: DurableMetric.transactions,
                timing: DurableMetric.transactionDuration, by: ("transaction", name), duration: duration,
                ["transaction": "\(name)", "key": "\(key)"], error: error)
        else { return }
        switch outcome {
        case .failed:
            logger.error("transaction failed: a compensation failed, its effects may remain", metadata: metadata)
        case .leaseLost:
            logger.warning("lease lost: the transaction stopped; another worker settles it", metadata: metadata)
        case .error:
            logger.error("transaction stopped on a journal error; another worker will settle it", metadata: metadata)
        default:
            logger.debug("transaction \(outcome.rawValue)", metadata: metadata)
        }
    }

    /// Counts, times, traces and logs how journaled command `kind` (`key`) ended.
    func commandEnded(
        kind: String, key: String, _ outcome: DurableOutcome, error: (any Error)? = nil, duration: Duration?,
        span: (any Span)?
    ) {
        guard
            case let (logger, metadata)? = ended(
                outcome.rawValue, span: span, counting: DurableMetric.commands, timing: DurableMetric.commandDuration,
                by: ("kind", kind), duration: duration, ["kind": "\(kind)", "key": "\(key)"], error: error)
        else { return }
        switch outcome {
        case .leaseLost:
            logger.warning("lease lost: the command stopped; another worker settles it", metadata: metadata)
        case .error: logger.error("command stopped on a journal error", metadata: metadata)
        default: logger.debug("command \(outcome.rawValue)", metadata: metadata)
        }
    }

    /// Counts, times, traces and logs how an attempt at a run of workflow `name` (`key`) ended:
    /// `done`, `failed`, `waiting` or `stopped`.
    func workflowAttemptEnded(
        _ name: String, key: String, _ outcome: String, error: (any Error)? = nil, duration: Duration, span: (any Span)?
    ) {
        guard
            case let (logger, metadata)? = ended(
                outcome, span: span, counting: DurableMetric.workflowAttempts,
                timing: DurableMetric.workflowAttemptDuration, by: ("workflow", name), duration: duration,
                ["workflow": "\(name)", "key": "\(key)"], error: error)
        else { return }
        logger.debug("workflow attempt \(outcome)", metadata: metadata)
    }

    /// Marks `span` with how a run ended, counts it under `counter` by `label` and `outcome`,
    /// and, given a `timer` and a `duration`, times it under `timer` by `label`; answers the
    /// logger and `metadata` with the outcome and the `error` in it, to log how it ended (`nil`
    /// without a logger).
    func ended(
        _ outcome: String, span: (any Span)?, counting counter: String, timing timer: String? = nil,
        by label: (String, String), duration: Duration?, _ metadata: Logger.Metadata, error: (any Error)?
    ) -> (Logger, Logger.Metadata)? {
        span?.attributes["behaviorkit.outcome"] = outcome
        if let metrics {
            metrics.increment(counter, [label, ("outcome", outcome)])
            if let timer, let duration { metrics.record(timer, [label], duration) }
        }
        guard let logger else { return nil }
        var metadata = metadata
        metadata["outcome"] = "\(outcome)"
        if let error { metadata["error"] = "\(error)" }
        return (logger, metadata)
    }

    /// Logs that a journal call outside any one record's run failed (a lease renewal).
    func journalFailed(_ what: String, keys: [String], error: any Error) {
        logger?.warning(
            "\(what) failed; the work goes on while its leases last",
            metadata: ["keys": "\(keys.joined(separator: ","))", "error": "\(error)"])
    }

    /// The attributes of a span about record `key`.
    static func attributes(key: String, _ more: [String: SpanAttribute] = [:]) -> SpanAttributes {
        var attributes = SpanAttributes(more)
        attributes["behaviorkit.key"] = key
        return attributes
    }
}

extension DurableInstruments {
    /// Counts and logs how recovery settled `record`, taken over from `previousOwner`.
    func recovered(
        _ record: CommandJournalRecord, _ outcome: DurableOutcome, from previousOwner: String?,
        error: (any Error)? = nil, reason: String? = nil
    ) {
        metrics?.increment(DurableMetric.recoveryRecords, [("outcome", outcome.rawValue)])
        guard let logger else { return }
        var metadata: Logger.Metadata = [
            "key": "\(record.id)", "kind": "\(record.entry.kind)", "outcome": "\(outcome.rawValue)",
            "attempt": "\(record.attempts)",
        ]
        if let previousOwner { metadata["previous_owner"] = "\(previousOwner)" }
        if let error { metadata["error"] = "\(error)" }
        if let reason { metadata["reason"] = "\(reason)" }
        switch outcome {
        case .unreadable:
            logger.warning("recovery cannot read a record; left pending for a worker that can", metadata: metadata)
        case .failed:
            logger.warning("recovery marked a record failed", metadata: metadata)
        case .leaseLost:
            logger.warning("lease lost during recovery: another worker settles the record", metadata: metadata)
        default:
            logger.info("recovery settled a record: \(outcome.rawValue)", metadata: metadata)
        }
    }

    /// Times, traces and logs the end of a recovery.
    func recoveryEnded(_ report: CommandRecoveryReport, duration: Duration, span: (any Span)?) {
        metrics?.record(DurableMetric.recoveryDuration, [], duration)
        if let span {
            span.attributes["behaviorkit.recovery.replayed"] = report.replayed.count
            span.attributes["behaviorkit.recovery.compensated"] = report.compensatedTransactions.count
            span.attributes["behaviorkit.recovery.completed"] = report.completedTransactions.count
            span.attributes["behaviorkit.recovery.failed"] = report.failed.count
            span.attributes["behaviorkit.recovery.left_pending"] = report.leftPending.count
            span.attributes["behaviorkit.recovery.unreadable"] = report.unreadable.count
        }
        let level: Logger.Level = report.isEmpty ? .debug : .info
        logger?.log(level: level, "\(report.description.split(separator: "\n").first ?? "recovery")")
    }
}
