extension Workflow {
    /// The journal entry that starts a run of this workflow under `key` with `input`: what
    /// ``Workflows/start(_:key:input:)`` enqueues on the workflows' queue. Written by something
    /// else in its own commit — a durable machine's step (`MachineCommand(starting:key:input:on:)`),
    /// or the app's own transaction — it starts the same run, once per key.
    ///
    /// - Throws: ``WorkflowError/invalidKey(key:reason:)`` for a key with a `"/"`;
    ///   ``WorkflowError/undecodable(key:reason:)`` when the input does not encode.
    public func runEntry(key: String, input: Input) throws -> CommandJournalEntry {
        try runEntry(key: key, input: input, parent: nil)
    }

    /// The entry of a run under `key`, a child of the run `parent` when one is given.
    func runEntry(key: String, input: Input, parent: String?) throws -> CommandJournalEntry {
        _ = try WorkflowRecord.checked(key, as: "run's key")
        let plan: WorkflowPlan
        do {
            plan = WorkflowPlan(name: name, input: try StepOutput.encode(input, key: key), parent: parent)
        } catch {
            throw WorkflowError.undecodable(key: key, reason: "its input: \(error)")
        }
        return try CommandRegistry.entry(kind: WorkflowRecord.runKind, arguments: plan, key: key)
    }
}
