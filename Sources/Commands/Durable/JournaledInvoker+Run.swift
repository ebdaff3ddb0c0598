import BehaviorKitSync
import Tracing

extension JournaledInvoker {
    /// Journals `command` under `key`, executes it and marks it done; returns once the mark is
    /// durable.
    ///
    /// - Returns: `.executed`, or `.alreadyDone` when the key already ran to the end.
    /// - Throws: what the command threw (its record is then failed);
    ///   ``CommandJournalError/alreadySettled(key:status:reason:)`` when the key failed or was
    ///   compensated before; ``CommandJournalError/busy(key:owner:)`` when another worker runs it
    ///   now.
    @discardableResult
    public func perform<C: JournaledCommand>(_ command: C, key: String) async throws -> CommandJournalRunResult {
        try await run(command, as: registry.entry(command, key: key))
    }

    /// Journals `command` as `kind` with `arguments` (a command with receivers, registered with
    /// ``CommandRegistry/register(_:arguments:make:)``), executes it and marks it done.
    @discardableResult
    public func perform(
        _ command: any Command, kind: String, arguments: some Encodable, key: String
    ) async throws -> CommandJournalRunResult {
        try await run(command, as: CommandRegistry.entry(kind: kind, arguments: arguments, key: key))
    }

    /// Journals `step` under `key`, executes it, and returns its output, which the journal keeps:
    /// running the key again returns the recorded output without running the step.
    ///
    /// ```swift
    /// let payment = try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
    /// ```
    public func perform<S: JournaledStep>(_ step: S, key: String) async throws -> S.Output {
        let entry = try CommandRegistry.entry(kind: S.journalKind, arguments: step, key: key)
        let (output, _) = try await run(DurableStep(step, payload: entry.payload), as: entry)
        guard let output else { throw DurableStepError.missingOutput(key: key, step: 0) }
        return try StepOutput.decode(S.Output.self, from: output, key: key)
    }

    /// Appends `entry`, executes `command` and marks the record done (or failed, rethrowing
    /// the command's error). A key already done is not run again.
    ///
    /// A record left pending by a worker that stopped is taken over once its lease expired,
    /// and run again: commands journaled this way must be safe to repeat under their
    /// idempotency key (``DurableContext/key`` is the key to pass on).
    @discardableResult
    public func run(_ command: any Command, as entry: CommandJournalEntry) async throws -> CommandJournalRunResult {
        let (_, executed) = try await run(
            DurableStep(kind: entry.kind, payload: entry.payload, command: command), as: entry)
        return executed ? .executed : .alreadyDone
    }

    /// Begins `entry` and runs `step` under it; returns the output and whether it ran now.
    func run(_ step: DurableStep, as entry: CommandJournalEntry) async throws -> (output: [UInt8]?, executed: Bool) {
        guard instruments.isOn else { return try await begin(step, as: entry, span: nil) }
        let attributes = DurableInstruments.attributes(
            key: entry.idempotencyKey, ["behaviorkit.command.kind": .string(entry.kind)])
        return try await instruments.withSpan("behaviorkit.command", attributes) { span in
            try await begin(step, as: entry, span: span)
        }
    }

    private func begin(
        _ step: DurableStep, as entry: CommandJournalEntry, span: (any Span)?
    ) async throws -> (output: [UInt8]?, executed: Bool) {
        await keeper.beginning()
        let sent = keeper.now
        let record: CommandJournalRecord
        do {
            switch try await journal.begin(entry, lease: lease) {
            case .started(let started), .resumed(let started):
                record = started
            case .settled(let settled):
                guard settled.status == .done else {
                    throw CommandJournalError.alreadySettled(
                        key: settled.id, status: settled.status, reason: settled.failureReason)
                }
                if instruments.isOn {
                    instruments.commandEnded(
                        kind: entry.kind, key: entry.idempotencyKey, .alreadyCompleted, duration: nil, span: span)
                }
                return (settled.output, false)
            case .busy(let busy):
                throw CommandJournalError.busy(key: busy.id, owner: busy.owner)
            }
        } catch {
            if instruments.isOn {
                instruments.commandEnded(
                    kind: entry.kind, key: entry.idempotencyKey, DurableOutcome(error), error: error, duration: nil,
                    span: span)
            }
            throw error
        }
        keeper.adopt([record], confirmedAt: sent)
        let output = try await keeper.hold(record.id, token: record.attempts) {
            try await self.execute(step, record, span: span)
        }
        return (output, true)
    }

    /// Executes `step` under `record`, which this worker holds, and settles the record; reports
    /// how it ended in `span` (the caller's), or in a span of its own.
    ///
    /// With a `retry` policy, a failure the policy retries releases the record to be claimed
    /// again after its backoff, writing the attempt's error, and throws ``RescheduledAttempt``.
    ///
    /// `commandEnded`, when given, is called once the command's `execute` returned or threw and
    /// its settlement is queued for its commit, before it is durable (a ``QueueWorker`` frees its
    /// slot then).
    func execute(
        _ step: DurableStep, _ record: CommandJournalRecord, span: (any Span)? = nil, retry: RetryPolicy? = nil,
        commandEnded: (@Sendable () -> Void)? = nil
    ) async throws -> [UInt8]? {
        guard instruments.isOn else {
            var outcome: DurableOutcome?
            return try await settle(step, record, &outcome, retry: retry, commandEnded: commandEnded)
        }
        if let span {
            return try await executeReported(step, record, span: span, retry: retry, commandEnded: commandEnded)
        }
        let attributes = DurableInstruments.attributes(
            key: record.id, ["behaviorkit.command.kind": .string(record.entry.kind)])
        return try await instruments.withSpan("behaviorkit.command", attributes) { span in
            try await executeReported(step, record, span: span, retry: retry, commandEnded: commandEnded)
        }
    }

    private func executeReported(
        _ step: DurableStep, _ record: CommandJournalRecord, span: (any Span)?, retry: RetryPolicy?,
        commandEnded: (@Sendable () -> Void)?
    ) async throws -> [UInt8]? {
        let started = keeper.now
        var outcome: DurableOutcome?
        do {
            let output = try await settle(step, record, &outcome, retry: retry, commandEnded: commandEnded)
            instruments.commandEnded(
                kind: record.entry.kind, key: record.id, .done, duration: keeper.now - started, span: span)
            return output
        } catch {
            instruments.commandEnded(
                kind: record.entry.kind, key: record.id, outcome ?? DurableOutcome(error), error: error,
                duration: keeper.now - started, span: span)
            throw error
        }
    }

    /// Runs `step` under `record` and settles the record; `outcome` says `.failed` when the step
    /// threw and its failure was written down.
    ///
    /// `commandEnded` is called once the settling write (or the release) is queued for its
    /// commit (``WriteQueued``), or once it returned or threw when it never was: the worker's next
    /// claim, made then, is queued after it and joins its commit.
    private func settle(
        _ step: DurableStep, _ record: CommandJournalRecord, _ outcome: inout DurableOutcome?, retry: RetryPolicy?,
        commandEnded: (@Sendable () -> Void)?
    ) async throws -> [UInt8]? {
        let key = record.id
        let attempt = lease.fenced(by: record)
        try await keeper.check(key, token: record.attempts)
        let context = DurableContext(key: key, owner: owner, attempt: max(1, record.attempts))
        let ended = commandEnded.map(CallOnce.init)
        defer { ended?() }
        let output: [UInt8]?
        do {
            output = try await DurableContext.$current.withValue(context) { try await step.run(context) }
        } catch {
            if keeper.isLost(key, token: record.attempts) { throw CommandJournalError.leaseLost(key: key, owner: nil) }
            if let delay = retry?.delay(after: max(1, record.attempts), of: key, failedWith: error) {
                try await keeper.settling(key, token: record.attempts) {
                    try await WriteQueued.$signal.withValue(ended) {
                        try await journal.release(key, lease: attempt, after: delay, failure: Self.reason(error))
                    }
                }
                outcome = .retried
                throw RescheduledAttempt(delay: delay, error: error)
            }
            try await keeper.settling(key, token: record.attempts) {
                try await WriteQueued.$signal.withValue(ended) {
                    try await journal.settle(key, as: .failed(reason: Self.reason(error)), lease: attempt)
                }
            }
            outcome = .failed
            throw error
        }
        try await keeper.settling(key, token: record.attempts) {
            try await WriteQueued.$signal.withValue(ended) {
                try await journal.settle(key, as: .done(output: output), lease: attempt)
            }
        }
        return output
    }

    /// How a failure reads in the journal.
    static func reason(_ error: any Error) -> String {
        error is CancellationError ? "cancelled" : "\(error)"
    }
}

/// A queued command's attempt failed and its record was released to be claimed again after
/// `delay` (its retry policy, or the ``RetryAfter`` it threw).
struct RescheduledAttempt: Error, CustomStringConvertible {
    let delay: Duration
    let error: any Error

    /// "tried again after 2.0 seconds: <the error>".
    var description: String { "tried again after \(delay): \(error)" }
}
