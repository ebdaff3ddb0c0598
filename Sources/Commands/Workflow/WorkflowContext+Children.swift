import BehaviorKitSync

extension WorkflowContext {
    /// Starts `workflow` with `input` as a child run under `key` (a run of its own, on the same
    /// queue, that any worker may take), unless the key was started before; returns its
    /// handle, whose ``WorkflowChild/result()`` the parent awaits durably. The start is written
    /// down at the run's next position: a parent taken up again starts nothing again, and
    /// starting a key that exists (here or anywhere) answers its first run, as
    /// ``Workflows/start(_:key:input:)`` does.
    ///
    /// ```swift
    /// let pick = try await context.start(picking, key: "\(context.key)-pick", input: order.items)
    /// let ship = try await context.start(shipping, key: "\(context.key)-ship", input: order.address)
    /// let (picked, label) = (try await pick.result(), try await ship.result())
    /// ```
    ///
    /// Derive `key` from the parent's key and input, never from a clock or a random number: a
    /// parent taken up again before it recorded the start must start the same key.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when the key holds another
    ///   workflow or input, ``WorkflowError/invalidKey(key:reason:)`` for a key with a `"/"` or
    ///   the run's own key,
    ///   ``WorkflowError/undecodable(key:reason:)`` when the input does not encode (the
    ///   function may catch these);
    ///   ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the journal
    ///   recorded something else at this position.
    public func start<Input, Output>(
        _ workflow: Workflow<Input, Output>, key childKey: String, input: Input
    ) async throws -> WorkflowChild<Output> {
        let position = try next()
        if let record = recorded[position] {
            try check(record, kind: WorkflowRecord.startKind, name: childKey, at: position)
            return WorkflowChild(key: childKey, context: self)
        }
        guard childKey != key else {
            throw WorkflowError.invalidKey(key: childKey, reason: "a run cannot start itself as its own child")
        }
        do {
            _ = try await engine.start(workflow, key: childKey, input: input, parent: key)
        } catch let error as WorkflowError {
            throw error
        } catch CommandJournalError.conflictingEntry(let key) {
            throw CommandJournalError.conflictingEntry(key: key)
        } catch {
            throw stop(error)
        }
        let entry = entry(position, kind: WorkflowRecord.startKind, name: childKey)
        let changes = changes(with: .settle(entry, as: .done(output: nil)))
        try await journaled { try await journal.settle(changes, lease: lease) }
        return WorkflowChild(key: childKey, context: self)
    }

    /// The outcome of the child run `childKey`, from the run's journal at its next position,
    /// or from the child's record once it settled (then written down at that position); the
    /// run waits while the child is pending.
    func join<Output: Codable & Sendable>(_ childKey: String, as type: Output.Type) async throws -> Output {
        let position = try next()
        try await flush()
        let entry = entry(position, kind: WorkflowRecord.joinKind, name: childKey)
        var outcome = recorded[position]
        var failure = outcome?.failureReason
        if let record = outcome {
            try check(record, kind: WorkflowRecord.joinKind, name: childKey, at: position)
        } else {
            guard let child = try await journaled({ try await journal.record(forKey: childKey) }) else {
                throw stop(CommandJournalError.unknownKey(childKey))
            }
            let settlement: CommandJournalSettlement
            switch child.status {
            case .pending:
                // Woken by the child's settlement (``Workflows/wakeParent(of:for:)``); the look
                // after `childPollInterval` is a safety net, for a wake lost with its worker.
                state.withLock { $0.awaitedChild = childKey }
                throw suspend(engine.childPollInterval)
            case .done: settlement = .done(output: child.output)
            case .failed: settlement = .failed(reason: child.failureReason ?? "\(child.status)")
            case .compensated:
                let rollback = try await journaled {
                    try await journal.record(forKey: WorkflowRecord.rollbackKey(childKey))
                }
                let compensated = WorkflowError.compensated(key: childKey, reason: rollback?.failureReason ?? "")
                settlement = .failed(reason: "\(compensated)")
            }
            try await journaled { try await journal.settle([.settle(entry, as: settlement)], lease: lease) }
            outcome = child
            if case .failed(let reason) = settlement { failure = reason }
        }
        switch outcome?.status {
        case .done?:
            do {
                return try StepOutput.decode(Output.self, from: outcome?.output ?? [], key: childKey)
            } catch {
                throw stop(WorkflowError.undecodable(key: childKey, reason: "its output: \(error)"))
            }
        default:
            throw WorkflowError.failed(key: childKey, reason: failure ?? "the child did not finish")
        }
    }
}
