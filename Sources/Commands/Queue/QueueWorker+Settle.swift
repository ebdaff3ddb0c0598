import BehaviorKitSync
import Logging
import Tracing

extension QueueWorker {
    /// Runs a claimed record to its settlement, counts how it ended and returns that; never
    /// throws (a journal error leaves the record to be taken over once its lease expires).
    ///
    /// `commandEnded`, when given, is called once a queued command's `execute` returned or threw
    /// and its settlement is queued in the journal's group commit, before it commits, so that the
    /// worker's slot is free while it commits (the next claim, queued after it, then joins the
    /// settlement in one commit, as PgQueuer's buffered completions do); never for a transaction,
    /// which holds its slot until it settled.
    @discardableResult
    func settle(_ record: CommandJournalRecord, commandEnded: (@Sendable () -> Void)? = nil) async -> DurableOutcome {
        guard instruments.isOn else { return await settleCounted(record, commandEnded).0 }
        let attributes = DurableInstruments.attributes(
            key: record.id,
            [
                "behaviorkit.queue": .string(queue.name), "behaviorkit.command.kind": .string(record.entry.kind),
                "behaviorkit.attempt": .int64(Int64(record.attempts)),
            ])
        // The span records no error of its own: how the record ended is its `behaviorkit.outcome`.
        // A child of the enqueuing caller's span when the record carries its trace context.
        let outcome = try? await instruments.withSpan(
            "behaviorkit.queue.record", attributes, continuing: record.traceContext
        ) { span in
            let started = invoker.keeper.now
            let (outcome, error) = await settleCounted(record, commandEnded)
            reportSettled(record, outcome, error: error, duration: invoker.keeper.now - started, span: span)
            return outcome
        }
        return outcome ?? .error
    }

    /// Settles `record` and counts how it ended in the worker's statistics.
    private func settleCounted(
        _ record: CommandJournalRecord, _ commandEnded: (@Sendable () -> Void)?
    ) async -> (DurableOutcome, (any Error)?) {
        let key = record.id
        do {
            if record.entry.kind == DurableTransaction.journalKind {
                let transaction = try invoker.rebuild(record)
                let settlement = try await invoker.keeper.hold(key, token: record.attempts) {
                    try await transaction.settle(record, startIfUntouched: true)
                }
                return counters.withLock { statistics in
                    switch settlement {
                    case .completed:
                        statistics.done += 1
                        return (.done, nil)
                    case .compensated:
                        statistics.compensated += 1
                        return (.compensated, nil)
                    case .failed:
                        statistics.failed += 1
                        return (.failed, nil)
                    }
                }
            } else {
                let step = try invoker.registry.step(for: record.entry)
                let policy = invoker.registry.retryPolicy(forKind: record.entry.kind) ?? retryPolicy
                do {
                    _ = try await invoker.keeper.hold(key, token: record.attempts) {
                        try await self.invoker.execute(step, record, retry: policy, commandEnded: commandEnded)
                    }
                    counters.withLock { $0.done += 1 }
                    return (.done, nil)
                } catch let rescheduled as RescheduledAttempt {
                    counters.withLock { $0.retried += 1 }
                    return (.retried, rescheduled.error)
                } catch let error where !(error is CommandJournalError) {
                    counters.withLock { $0.failed += 1 }
                    return (.failed, error)
                }
            }
        } catch let error as CommandRegistryError {
            counters.withLock { $0.unreadable += 1 }
            try? await invoker.giveBack(record)
            return (.unreadable, error)
        } catch let error as CommandJournalError {
            if case .leaseLost = error {
                counters.withLock { $0.lost += 1 }
                return (.leaseLost, error)
            }
            recordJournalError(error, record)
            return (.error, error)
        } catch {
            recordJournalError(error, record)
            return (.error, error)
        }
    }

    private func recordJournalError(_ error: any Error, _ record: CommandJournalRecord) {
        invoker.keeper.drop(record.id, token: record.attempts)
        counters.withLock {
            $0.journalErrors += 1
            $0.lastJournalError = "\(error)"
        }
    }

    /// Counts, traces and logs how `record` settled.
    private func reportSettled(
        _ record: CommandJournalRecord, _ outcome: DurableOutcome, error: (any Error)?, duration: Duration,
        span: (any Span)?
    ) {
        guard
            case let (logger, metadata)? = instruments.ended(
                outcome.rawValue, span: span, counting: DurableMetric.queueRecords, by: ("queue", queue.name),
                duration: duration, ["key": "\(record.id)", "kind": "\(record.entry.kind)", "duration": "\(duration)"],
                error: error)
        else { return }
        switch outcome {
        case .unreadable:
            logger.warning("cannot read a queued record; given back for a worker that can", metadata: metadata)
        case .retried:
            logger.info("attempt failed; the record is tried again later", metadata: metadata)
        case .leaseLost:
            logger.warning("lease lost: the record stopped; another worker settles it", metadata: metadata)
        case .error:
            logger.error("a journal error stopped a queued record; it is taken over later", metadata: metadata)
        default:
            logger.debug("queued record \(outcome.rawValue)", metadata: metadata)
        }
    }
}
