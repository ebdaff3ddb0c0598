import BehaviorKitSync

extension WorkflowContext {
    /// Runs `body` once, as `step(_:retry:_:)` does, and makes the step part of the run's saga:
    /// if the run then fails (its function throws) or is cancelled, `compensate` undoes it,
    /// given the step's output and a ``DurableContext`` (the step's key, the attempt's fencing
    /// token, the ``DurableContext/compensationCause``). The finished steps that have a
    /// compensation are compensated newest first, under the workflow's ``CompensationPolicy``,
    /// and the run settles compensated (its result throws ``WorkflowError/compensated(key:reason:)``),
    /// or failed, naming each compensation that failed.
    ///
    /// ```swift
    /// let charge = try await context.step("charge") { step in
    ///     try await bank.charge(order.cents, idempotencyKey: step.key, fencingToken: step.fencingToken)
    /// } compensate: { step, charge in
    ///     try await bank.refund(charge, fencingToken: step.fencingToken)
    /// }
    /// ```
    ///
    /// A step answered from the journal (a run taken up again) is compensated too, with its
    /// recorded output; a step that failed, or that has no compensation, is not. Each
    /// compensation is written down once it ran: a worker that takes a rollback over from one
    /// that stopped runs only those not written (the one in flight may run again: make it
    /// idempotent under its key). A run that stops on a determinism error does not compensate.
    ///
    /// - Throws: what `step(_:retry:_:)` throws.
    @discardableResult
    public func step<T: Codable & Sendable>(
        _ name: String, retry: RetryPolicy = .never, _ body: @Sendable (DurableContext) async throws -> T,
        compensate: @escaping @Sendable (DurableContext, T) async throws -> Void
    ) async throws -> T {
        try await step(name, retry: retry, compensation: compensate, body)
    }

    /// Runs `body` once, as `step(_:retry:_:compensate:)` does, for a step that returns
    /// nothing: `compensate` gets the compensation's context only.
    public func step(
        _ name: String, retry: RetryPolicy = .never, _ body: @Sendable (DurableContext) async throws -> Void,
        compensate: @escaping @Sendable (DurableContext) async throws -> Void
    ) async throws {
        _ = try await step(name, retry: retry, compensation: { context, _ in try await compensate(context) }) {
            context -> Bool in
            try await body(context)
            return true
        }
    }

    /// Keeps the compensation of the step `name` at `position`, finished with `output`; the
    /// run's compensations mark goes with the next write, if the run has none yet.
    func gather<T: Sendable>(
        _ compensate: @escaping @Sendable (DurableContext, T) async throws -> Void, of name: String, at position: Int,
        output: T
    ) {
        let compensation = WorkflowCompensation(position: position, name: name) { context in
            try await compensate(context, output)
        }
        let mark = CommandJournalEntry(
            idempotencyKey: CommandJournalCancellation.compensationsKey(of: key), kind: WorkflowRecord.compensableKind,
            payload: [], parentKey: key)
        state.withLock { state in
            state.compensations.append(compensation)
            guard !state.compensable else { return }
            state.compensable = true
            state.unwritten.append(.settle(mark, as: .done(output: nil)))
        }
    }
}
