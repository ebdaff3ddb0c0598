extension Workflows {
    /// Runs `workflow` with `input` under `key` in the caller's task, as DBOS runs a workflow
    /// function called directly, and answers its output: one call instead of
    /// ``start(_:key:input:)``, a worker's claim and ``WorkflowHandle/result()``.
    ///
    /// ```swift
    /// let receipt = try await workflows.run(checkout, key: "order-42", input: order)
    /// ```
    ///
    /// A new key is written down on the workflows' queue, held under this process's lease (its
    /// invoker's lease keeper renews it), and the run goes on here until it settles: the
    /// journal then holds what a run started with ``start(_:key:input:)`` holds, and
    /// ``handle(_:key:)``, the console and ``run()`` workers see it the same. A key that ran
    /// before answers how it ran, without running; a key another live worker holds is waited
    /// for, as ``WorkflowHandle/result()`` waits. A run that sleeps or waits for a message is
    /// released as any run is, and the call waits for the worker that finishes it. If this
    /// process dies, a ``run()`` worker takes the run up once its lease lapses. The caller runs
    /// it: the queue's ``CommandQueue/concurrency`` does not hold it back.
    ///
    /// - Throws: ``WorkflowError/failed(key:reason:)`` with the error the run recorded;
    ///   ``WorkflowError/compensated(key:reason:)`` when its steps were compensated;
    ///   ``CommandJournalError/conflictingEntry(key:)`` when the key holds another workflow or
    ///   another input; ``WorkflowError/undecodable(key:reason:)`` when the input does not encode
    ///   or the output does not decode; ``WorkflowError/invalidKey(key:reason:)`` for a key with
    ///   a `"/"`; `InvalidKeyError` for a key the journal cannot keep; `CancellationError` when
    ///   the caller is cancelled (the run, released, is a worker's to finish).
    public func run<Input, Output>(
        _ workflow: Workflow<Input, Output>, key: String, input: Input
    ) async throws -> Output {
        _ = try WorkflowRecord.checked(key, as: "run's key")
        let plan: WorkflowPlan
        do {
            plan = WorkflowPlan(name: workflow.name, input: try StepOutput.encode(input, key: key))
        } catch {
            throw WorkflowError.undecodable(key: key, reason: "its input: \(error)")
        }
        let entry = try CommandRegistry.entry(kind: WorkflowRecord.runKind, arguments: plan, key: key)
        let keeper = invoker.keeper
        await keeper.beginning()
        let sent = keeper.now
        let record: CommandJournalRecord
        switch try await journal.begin(entry, queue: queue.name, lease: invoker.lease) {
        case .started(let started), .resumed(let started): record = started
        case .settled(let settled): return try await WorkflowHandle<Output>.output(of: settled, in: journal)
        case .busy: return try await handle(workflow, key: key).result()
        }
        keeper.adopt([record], confirmedAt: sent)
        // The plan written above, unless the key held another payload (it is then read from the record).
        let known = record.entry.payload == entry.payload ? plan : nil
        if case .settled(let settlement) = await attempt(record, plan: known) {
            return try await WorkflowHandle<Output>.output(key, settlement, in: journal)
        }
        // Released to wait, or stopped: a worker finishes it.
        return try await handle(workflow, key: key).result()
    }
}
