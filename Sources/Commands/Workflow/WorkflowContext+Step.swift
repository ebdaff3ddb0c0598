import BehaviorKitSync
import Tracing

extension WorkflowContext {
    /// Runs `body` once and writes its output down at the run's next position: a run taken up
    /// again answers the recorded output without running it. `body` gets the step's
    /// ``DurableContext`` (its key `"<run>/<position>"` and the attempt's fencing token) to
    /// pass on to the services it calls.
    ///
    /// ```swift
    /// let payment = try await context.step("charge", retry: .default) { step in
    ///     try await bank.charge(cents, idempotencyKey: step.key, fencingToken: step.fencingToken)
    /// }
    /// ```
    ///
    /// The step's output is written before anything else runs — in one commit with the next
    /// sleep's or receive's record, or with the run's settlement after the last step (the
    /// next step's first write otherwise): three steps and the run's settlement take three
    /// commits, as a ``DurableTransaction``'s do, after the start and the claim. Until then the
    /// step that just finished may run again after a crash, as the step in flight does.
    ///
    /// A failed attempt is tried again under `retry` (backoff on the worker's clock); the last
    /// error is written down and thrown as ``WorkflowError/stepFailed(key:step:reason:)``, the
    /// same error a run taken up again gets without running the step. A step the worker ran
    /// but could not write down before it stopped runs again: make it idempotent under its key.
    ///
    /// - Throws: ``WorkflowError/stepFailed(key:step:reason:)``;
    ///   ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the journal
    ///   recorded something else at this position.
    public func step<T: Codable & Sendable>(
        _ name: String, retry: RetryPolicy = .never, _ body: @Sendable (DurableContext) async throws -> T
    ) async throws -> T {
        try await step(name, retry: retry, compensation: nil, body)
    }

    /// Runs `body` once, as `step(_:retry:_:)` does, then calls its output — or the output the
    /// journal recorded, for a run taken up again — something `compensate` undoes if the run
    /// fails or is cancelled later.
    func step<T: Codable & Sendable>(
        _ name: String, retry: RetryPolicy, compensation: (@Sendable (DurableContext, T) async throws -> Void)?,
        _ body: @Sendable (DurableContext) async throws -> T
    ) async throws -> T {
        let position = try next()
        let childKey = WorkflowRecord.childKey(key, position)
        if let record = recorded[position] {
            try check(record, kind: WorkflowRecord.stepKind, name: name, at: position)
            switch record.status {
            case .done:
                guard let output = record.output else {
                    throw stop(WorkflowError.undecodable(key: key, reason: "step '\(name)' has no recorded output"))
                }
                let value: T
                do {
                    value = try StepOutput.decode(T.self, from: output, key: childKey)
                } catch {
                    throw stop(WorkflowError.undecodable(key: key, reason: "\(error)"))
                }
                if let compensation { gather(compensation, of: name, at: position, output: value) }
                return value
            case .failed, .compensated:
                throw WorkflowError.stepFailed(key: key, step: name, reason: record.failureReason ?? "\(record.status)")
            case .pending:
                break
            }
        }
        try await flush()
        try await journaled { try await engine.invoker.keeper.check(key, token: fencingToken) }
        let context = DurableContext(
            key: childKey, transactionKey: key, stepIndex: position, owner: owner, attempt: fencingToken)
        let entry = entry(position, kind: WorkflowRecord.stepKind, name: name)
        let value: T
        do {
            value = try await traced(name, context) { try await attempts(context, retry: retry, body) }
        } catch {
            if error is CancellationError || Task.isCancelled { throw stop(await cancellation(or: error)) }
            let reason = JournaledInvoker.reason(error)
            try await journaled {
                try await journal.settle([.settle(entry, as: .failed(reason: reason))], lease: lease)
            }
            throw WorkflowError.stepFailed(key: key, step: name, reason: reason)
        }
        let output: [UInt8]
        do {
            output = try StepOutput.encode(value, key: childKey)
        } catch {
            throw stop(WorkflowError.undecodable(key: key, reason: "\(error)"))
        }
        // Written with the next write: the next step's, a sleep's, or the run's settlement.
        state.withLock { $0.unwritten.append(.settle(entry, as: .done(output: output))) }
        if let compensation { gather(compensation, of: name, at: position, output: value) }
        return value
    }

    /// Runs `body` once, as `step(_:retry:_:)` does, for a step that returns nothing.
    public func step(
        _ name: String, retry: RetryPolicy = .never, _ body: @Sendable (DurableContext) async throws -> Void
    ) async throws {
        _ = try await step(name, retry: retry) { context -> Bool in
            try await body(context)
            return true
        }
    }

    /// Runs `body`, the step `name` run now (not answered from the journal) or its compensation,
    /// in a span `span` (`behaviorkit.workflow.step`, `behaviorkit.workflow.compensation`) when a
    /// tracer is there: a child of the attempt's `behaviorkit.workflow` span.
    func traced<T>(
        _ name: String, _ context: DurableContext, span: String = "behaviorkit.workflow.step",
        _ body: () async throws -> T
    ) async throws -> T {
        let instruments = engine.invoker.instruments
        guard instruments.tracer != nil else { return try await body() }
        let attributes = DurableInstruments.attributes(
            key: context.key,
            [
                "behaviorkit.workflow.key": .string(key),
                "behaviorkit.step.index": .int64(Int64(context.stepIndex ?? 0)),
                "behaviorkit.step.name": .string(name), "behaviorkit.attempt": .int64(Int64(fencingToken)),
            ])
        return try await instruments.withSpan(span, attributes) { _ in try await body() }
    }

    /// Runs `body` under `retry`: a failed attempt is written down and tried again after the
    /// policy's backoff, while the worker holds the run.
    private func attempts<T>(
        _ context: DurableContext, retry: RetryPolicy, _ body: @Sendable (DurableContext) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await DurableContext.$current.withValue(context) { try await body(context) }
            } catch {
                guard !(error is CancellationError), !Task.isCancelled,
                    let delay = retry.delay(after: attempt, of: context.key, failedWith: error)
                else { throw error }
                try await journaled {
                    try await journal.logAttempt(
                        CommandJournalAttempt(number: attempt, owner: owner, error: JournaledInvoker.reason(error)),
                        of: context.key, parentKey: key, lease: lease)
                }
                try await engine.invoker.keeper.clock.sleep(for: delay)
                try await journaled { try await engine.invoker.keeper.check(key, token: fencingToken) }
                attempt += 1
            }
        }
    }
}
