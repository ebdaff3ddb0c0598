import Tracing

/// A transaction whose every step, step output and compensation is journaled as it runs, so
/// that it never stays half-done: if its worker stops, another worker takes it over once the
/// lease expires and compensates it in reverse, or completes it where you chose
/// ``DurableTransactionRecovery/complete``. Exactly one worker settles it, with its steps.
///
/// The transaction is one record (kind ``journalKind``, its steps in the payload) and each
/// step one record under the key `"<key>/<index>"` whose parent is the transaction; a step's
/// output is kept in its record and handed to later steps and to its own compensation.
///
/// ```swift
/// let order = invoker.transaction("order", key: "order-42", steps: [
///     try DurableStep(Reserve(order: 42)), try DurableStep(Charge(order: 42, cents: 990)),
/// ])
/// let result = try await order.run()  // a crash anywhere: the refund gets the charge's payment id
/// ```
///
/// Running a key again answers how it settled: the outputs when it completed, an error when it
/// was compensated or failed (``CommandJournalError/alreadySettled(key:status:reason:)``), and
/// never runs a step twice. A step may be undone without knowing whether it ran (a crash
/// between its record and its mark), and may run twice under forward recovery: steps must be
/// idempotent under their ``DurableContext/key``.
public struct DurableTransaction: Command {
    /// The record kind of durable transactions; recovery needs no registration for it.
    public static let journalKind = "behaviorkit.transaction"

    /// The transaction's name.
    public let name: String
    /// The idempotency key of its record.
    public let key: String
    /// The steps, in the order they run.
    public let steps: [DurableStep]
    /// How a worker that takes it over settles it.
    public let recovery: DurableTransactionRecovery
    /// How it undoes its steps when it rolls back: a failing compensation is retried with
    /// backoff, and the rollback stops at the deadline, as a ``Transaction``'s does; the steps
    /// not undone are named in the failed record's reason.
    public let compensation: CompensationPolicy

    let invoker: JournaledInvoker
    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// Creates a transaction of `steps` run by `invoker` under `key`, undone under
    /// `compensation` (`nil`: the invoker's ``JournaledInvoker/compensation``).
    public init(
        _ name: String, key: String, recovery: DurableTransactionRecovery = .compensate,
        invoker: JournaledInvoker, steps: [DurableStep], compensation: CompensationPolicy? = nil,
        observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) {
        self.name = name
        self.key = key
        self.recovery = recovery
        self.compensation = compensation ?? invoker.compensation
        self.invoker = invoker
        self.steps = steps
        self.observer = observer
    }

    /// Creates a transaction of `steps` journaled in `journal` under `key`, run by a worker of
    /// its own, undone under `compensation`.
    public init(
        _ name: String, key: String, recovery: DurableTransactionRecovery = .compensate,
        journal: any CommandJournal, steps: [DurableStep], compensation: CompensationPolicy = .default,
        observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) {
        self.init(
            name, key: key, recovery: recovery, invoker: JournaledInvoker(journal: journal), steps: steps,
            compensation: compensation, observer: observer)
    }

    /// The journal it is written in.
    public var journal: any CommandJournal { invoker.journal }

    /// Undoing a durable transaction is not supported: it settles once, done or compensated.
    public var canUndo: Bool { false }

    /// The transaction's own record.
    public var entry: CommandJournalEntry {
        get throws(CommandRegistryError) {
            let plan = DurableTransactionPlan(
                name: name, recovery: recovery,
                steps: steps.map { .init(kind: $0.kind, name: $0.name, payload: $0.payload) })
            return try CommandRegistry.entry(kind: Self.journalKind, arguments: plan, key: key)
        }
    }

    /// The record of step `index`.
    public func stepEntry(_ index: Int) -> CommandJournalEntry {
        CommandJournalEntry(
            idempotencyKey: stepKey(index), kind: steps[index].kind, payload: steps[index].payload, parentKey: key)
    }

    /// Runs the steps in order, each journaled before it runs and settled (with its output)
    /// after; when one fails, or the task is cancelled, undoes the finished ones in reverse,
    /// marking each compensated, and throws a ``TransactionError``. Compensation runs to its
    /// end even when the task was cancelled.
    ///
    /// - Returns: the outputs of the steps; `.alreadyCompleted` when the key had completed.
    /// - Throws: ``TransactionError`` when a step fails;
    ///   ``CommandJournalError/alreadySettled(key:status:reason:)`` when the key was compensated
    ///   or failed before; ``CommandJournalError/busy(key:owner:)`` when another worker runs it
    ///   now; ``CommandJournalError/leaseLost(key:owner:)`` when another worker took it over
    ///   while it ran (it then settles it); the journal's error when it cannot write.
    @discardableResult
    public func run() async throws -> DurableTransactionResult {
        guard invoker.instruments.isOn else { return try await begin() }
        return try await reporting(spanAttributes, begin) { result in
            result.status == .completed ? (.completed, timed: true) : (.alreadyCompleted, timed: false)
        }
    }

    /// Begins the transaction's record and runs it: ``run()`` without its reports.
    private func begin() async throws -> DurableTransactionResult {
        await invoker.keeper.beginning()
        let sent = invoker.keeper.now
        let record: CommandJournalRecord
        let isNew: Bool
        switch try await journal.begin(entry, lease: invoker.lease) {
        case .started(let started):
            (record, isNew) = (started, true)
        case .resumed(let resumed):
            (record, isNew) = (resumed, false)
        case .settled(let settled):
            guard settled.status == .done else {
                throw CommandJournalError.alreadySettled(
                    key: key, status: settled.status, reason: settled.failureReason)
            }
            return DurableTransactionResult(key: key, status: .alreadyCompleted, outputs: try await recordedOutputs())
        case .busy(let busy):
            throw CommandJournalError.busy(key: key, owner: busy.owner)
        }
        invoker.keeper.adopt([record], confirmedAt: sent)
        let outputs = try await invoker.keeper.hold(key, token: record.attempts) {
            try await self.goOn(record, isNew: isNew)
        }
        return DurableTransactionResult(key: key, status: .completed, outputs: outputs)
    }

    /// The attributes of the transaction's span.
    var spanAttributes: SpanAttributes {
        DurableInstruments.attributes(
            key: key, ["behaviorkit.transaction.name": .string(name), "behaviorkit.steps": .int64(Int64(steps.count))])
    }

    /// Runs the steps: the same as ``run()``.
    public func execute() async throws { try await run() }

    /// Does nothing: a durable transaction settles once.
    public func undo() async throws {}

    /// Goes on from where the journal shows the transaction: forward, unless a rollback was
    /// under way (which then finishes, and the transaction answers how it settled). A record
    /// this begin wrote (`isNew`) has no steps to read: they are written under its lease, and an
    /// operator's cancellation can only follow the begin (as it could follow the read).
    func goOn(_ record: CommandJournalRecord, isNew: Bool) async throws -> [Int: [UInt8]] {
        let (records, cancellation) = isNew ? ([:], nil) : try await journaledSteps()
        if let cancellation {
            let failures = try await compensate(records, attempt: record.attempts, cause: cancellation)
            throw CommandJournalError.alreadySettled(
                key: key, status: failures.isEmpty ? .compensated : .failed, reason: cancellation)
        }
        if records.values.contains(where: { $0.status == .failed || $0.status == .compensated }) {
            let failures = try await compensate(records, attempt: record.attempts)
            throw CommandJournalError.alreadySettled(
                key: key, status: failures.isEmpty ? .compensated : .failed,
                reason: "its worker stopped while rolling it back; the rollback was finished")
        }
        observer?(.started(name))
        return try await drive(records, attempt: record.attempts)
    }

    func stepKey(_ index: Int) -> String { "\(key)/\(index)" }

    /// The journaled steps by index.
    func stepRecords() async throws -> [Int: CommandJournalRecord] {
        try await journaledSteps().steps
    }

    /// The journaled steps by index, and the reason an operator cancelled the transaction
    /// (``CommandJournalManagement/cancel(_:reason:)``), if one did.
    func journaledSteps() async throws -> (steps: [Int: CommandJournalRecord], cancellation: String?) {
        var records: [Int: CommandJournalRecord] = [:]
        var cancellation: String?
        for record in try await journal.records(parentKey: key) {
            if record.entry.kind == CommandJournalCancellation.kind {
                cancellation = record.failureReason ?? CommandJournalCancellation.reason("")
            } else if let index = Int(record.entry.idempotencyKey.dropFirst(key.count + 1)) {
                records[index] = record
            }
        }
        return (records, cancellation)
    }

    /// The outputs the journal holds for the steps.
    func recordedOutputs() async throws -> [Int: [UInt8]] {
        try await stepRecords().compactMapValues { $0.status == .done ? $0.output : nil }
    }
}
