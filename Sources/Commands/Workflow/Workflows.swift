import BehaviorKitSync

/// Starts workflows, sends them messages, and runs them: the workflows of a
/// ``WorkflowRegistry`` on a ``CommandQueue``, under the leases of a ``JournaledInvoker``.
/// Make one in every process that starts or runs workflows, with the same registry.
///
/// ```swift
/// let workflows = Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker)
/// let worker = Task { await workflows.run() }            // in each worker process
/// let handle = try await workflows.start(checkout, key: "order-42", input: order)
/// try await workflows.send(Payment(id: "p-1"), to: "order-42", topic: "paid", id: "p-1")
/// let receipt = try await handle.result()                // waits for the outcome
/// let other = try await workflows.run(checkout, key: "order-43", input: order)  // runs it here
/// ```
///
/// A run is a record on the queue under its key (starting the key again starts nothing and
/// answers how the run went); its steps, sleeps and receives are the record's children; a
/// message is a record of its own on the run's mailbox queue. Runs obey the queue's
/// ``CommandQueue/concurrency``; a run that sleeps or waits for a message is released and
/// claimed again when it is due, by whichever worker claims first.
public final class Workflows: Sendable {
    /// The workflows this process can run.
    public let registry: WorkflowRegistry
    /// The queue the runs wait on.
    public let queue: CommandQueue
    /// The worker identity, leases and clock the runs are held with.
    public let invoker: JournaledInvoker
    /// How many runs ``runDue()`` takes at a time.
    public let slots: Int
    /// How often a run that waits for a message looks again, and how often ``run()``,
    /// ``WorkflowHandle/result()`` and ``event(of:key:as:timeout:)`` look when nothing tells them to.
    public let pollInterval: Duration
    /// Signalled when a worker of this process settles a run.
    let settlements = WakeSignal()
    /// Signalled when a run publishes an event in this process.
    let publications = WakeSignal()

    /// Workflows of `registry` run on `queue` by `invoker` (which must write to the queue's
    /// journal), `slots` runs at a time, looking again every `pollInterval`.
    public init(
        _ registry: WorkflowRegistry, queue: CommandQueue, invoker: JournaledInvoker, slots: Int = 8,
        pollInterval: Duration = .seconds(1)
    ) {
        self.registry = registry
        self.queue = queue
        self.invoker = invoker
        self.slots = max(1, slots)
        self.pollInterval = max(pollInterval, .milliseconds(1))
    }

    /// The journal the runs are written in.
    public var journal: any CommandJournal { queue.journal }

    /// Starts `workflow` with `input` under `key`, unless the key was started before: returns
    /// once the run is durable. Starting a key again starts nothing: its handle answers how the
    /// first start ran (its output or its error), as DBOS's workflow ids do.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when the key holds another
    ///   workflow or another input; ``WorkflowError/undecodable(key:reason:)`` when the input
    ///   does not encode; ``WorkflowError/invalidKey(key:reason:)`` for a key with a `"/"`;
    ///   `InvalidKeyError` for a key the journal cannot keep.
    @discardableResult
    public func start<Input, Output>(
        _ workflow: Workflow<Input, Output>, key: String, input: Input
    ) async throws -> WorkflowHandle<Output> {
        try await start(workflow, key: key, input: input, parent: nil)
    }

    /// Starts `workflow` as ``start(_:key:input:)`` does; a child run names its `parent`, which
    /// its settlement wakes. A key started before with the same workflow and input, without
    /// this parent (a run of its own, say), answers that run: its parent then finds its outcome
    /// at its next look.
    @discardableResult
    func start<Input, Output>(
        _ workflow: Workflow<Input, Output>, key: String, input: Input, parent: String?
    ) async throws -> WorkflowHandle<Output> {
        let entry = try workflow.runEntry(key: key, input: input, parent: parent)
        do {
            try await queue.enqueue(entry)
        } catch CommandJournalError.conflictingEntry(let conflicting) where parent != nil {
            guard let existing = try await journal.record(forKey: key).flatMap(WorkflowPlan.of),
                let plan = WorkflowPlan.of(entry),
                existing.name == plan.name, existing.input == plan.input
            else { throw CommandJournalError.conflictingEntry(key: conflicting) }
        }
        return handle(workflow, key: key)
    }

    /// The handle of the run of `workflow` under `key`, started here or elsewhere.
    public func handle<Input, Output>(_ workflow: Workflow<Input, Output>, key: String) -> WorkflowHandle<Output> {
        WorkflowHandle(key: key, workflows: self)
    }

    /// Sends `message` to the run `key` on `topic`, once per `id`: sending the same id again
    /// (a retried request, another process) changes nothing. The run receives it with
    /// ``WorkflowContext/receive(_:topic:timeout:)``; a message sent before the run asks for
    /// it waits. Returns once the message is durable, having woken the run if it waits
    /// (``CommandJournal/wake(_:)``): a worker takes it up at once, in this process or, on
    /// PostgreSQL, any other.
    ///
    /// - Throws: ``CommandJournalError/conflictingEntry(key:)`` when `id` was sent with
    ///   another message; ``WorkflowError/undecodable(key:reason:)`` when the message does not
    ///   encode; ``WorkflowError/invalidKey(key:reason:)`` for a key or topic with a `"/"`;
    ///   `InvalidKeyError` for a key, topic or id the journal cannot keep.
    public func send<M: Encodable>(_ message: M, to key: String, topic: String, id: String) async throws {
        _ = try WorkflowRecord.checked(key, as: "run's key")
        _ = try WorkflowRecord.checked(topic, as: "topic")
        let messageKey = WorkflowRecord.messageKey(key, topic: topic, id: id)
        let payload: [UInt8]
        do {
            payload = try StepOutput.encode(message, key: messageKey)
        } catch {
            throw WorkflowError.undecodable(key: key, reason: "the message '\(id)': \(error)")
        }
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: messageKey, kind: WorkflowRecord.messageKind, payload: payload),
            queue: WorkflowRecord.mailbox(key, topic: topic), after: .zero)
        await wake(key, for: "a message on '\(topic)'")
    }
}
