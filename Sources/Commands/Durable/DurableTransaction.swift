/// A transaction whose every step, and every compensation, is journaled as it runs, so that a
/// crash never leaves it half-done: on start, ``JournaledInvoker/recover(policy:)`` compensates
/// it in reverse, or completes it where you chose ``DurableTransactionRecovery/complete``.
///
/// The transaction is one record (kind ``journalKind``, its steps in the payload) and each
/// step one record under the key `"<key>/<index>"` whose parent is the transaction.
///
/// ```swift
/// let order = try DurableTransaction("order", key: "order-42", journal: journal, steps: [
///     DurableStep(Reserve(order: 42)), DurableStep(Charge(order: 42, cents: 990)),
/// ])
/// try await order.run()  // a crash anywhere: recovery refunds, then releases the stock
/// ```
///
/// A step may be undone without knowing whether it ran (a crash between its record and its
/// mark), and may run twice under forward recovery: steps must be idempotent.
public struct DurableTransaction: Command {
    /// The record kind of durable transactions; recovery needs no registration for it.
    public static let journalKind = "behaviorkit.transaction"

    /// The transaction's name.
    public let name: String
    /// The idempotency key of its record.
    public let key: String
    /// The steps, in the order they run.
    public let steps: [DurableStep]
    /// How a crash is settled.
    public let recovery: DurableTransactionRecovery

    let journal: any CommandJournal
    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// Creates a transaction of `steps` journaled in `journal` under `key`.
    public init(
        _ name: String, key: String, recovery: DurableTransactionRecovery = .compensate,
        journal: any CommandJournal, steps: [DurableStep], observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) {
        self.name = name
        self.key = key
        self.recovery = recovery
        self.journal = journal
        self.steps = steps
        self.observer = observer
    }

    /// Undoing a durable transaction is not supported: it settles once, done or compensated.
    public var canUndo: Bool { false }

    /// The transaction's own record.
    public var entry: CommandJournalEntry {
        get throws(CommandRegistryError) {
            let plan = DurableTransactionPlan(
                name: name, recovery: recovery,
                steps: steps.map { .init(kind: $0.kind, name: $0.command.name, payload: $0.payload) })
            return try CommandRegistry.entry(kind: Self.journalKind, arguments: plan, key: key)
        }
    }

    /// The record of step `index`.
    public func stepEntry(_ index: Int) -> CommandJournalEntry {
        CommandJournalEntry(
            idempotencyKey: "\(key)/\(index)", kind: steps[index].kind, payload: steps[index].payload, parentKey: key)
    }

    /// Runs the steps in order, each journaled before it runs and marked after; when one
    /// fails, undoes the finished ones in reverse, marking each compensated, and throws a
    /// ``TransactionError``. A key already settled (done or compensated) does not run again.
    ///
    /// - Throws: ``TransactionError`` when a step fails; the journal's error when it cannot write.
    public func run() async throws {
        let record = try await journal.append(entry)
        guard record.status == .pending else { return }
        observer?(.started(name))
        // A key already pending (run again before recovery) goes on from the steps done.
        try await drive(existing: try await stepRecords())
    }

    /// Runs the steps: the same as ``run()``.
    public func execute() async throws { try await run() }

    /// Does nothing: a durable transaction settles once.
    public func undo() async throws {}
}
