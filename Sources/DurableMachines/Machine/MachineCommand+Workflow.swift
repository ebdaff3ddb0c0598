public import Commands

extension MachineCommand {
    /// Starts a run of `workflow` under `key` with `input`, on the workflows' `queue` (the name
    /// of the `CommandQueue` your `Workflows` serve), in the step's commit: the step and the
    /// run's start are never one without the other, and a step replayed starts nothing twice
    /// (a key runs once). With `reportsBack`, the instance hears how the run ended, once, as a
    /// transaction's ``TransactionReport`` (done with its output in the journal; failed with its
    /// error).
    ///
    /// ```swift
    /// let orders = DurableMachine("order", definition: lifecycle, store: store.machines, journal: store.journal,
    ///                             report: { $0.outcome == .done ? .shipped : .stuck }) { step, order in
    ///     step.configuration == [.paid]
    ///         ? [try MachineCommand(starting: shipment, key: "ship-\(order.id)", input: order, on: "workflows",
    ///                               reportsBack: true)] : []
    /// }
    /// ```
    ///
    /// - Throws: `WorkflowError` for a key with a `"/"` or an input that does not encode.
    public init<Input, Output>(
        starting workflow: Workflow<Input, Output>, key: String, input: Input, on queue: String,
        after delay: Duration = .zero, reportsBack: Bool = false
    ) throws {
        self.queue = queue
        self.entry = try workflow.runEntry(key: key, input: input)
        self.delay = delay
        self.reportsBack = reportsBack
    }
}
