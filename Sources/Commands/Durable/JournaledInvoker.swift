/// Runs commands through a ``CommandJournal`` (append, execute, mark done) and, on start,
/// settles what a crash left unfinished: replays commands, or hands them to your policy, and
/// compensates (or completes) half-done ``DurableTransaction``s.
///
/// ```swift
/// let invoker = JournaledInvoker(journal: try SQLiteCommandJournal(path: "orders.sqlite"), registry: registry)
/// let report = try await invoker.recover()         // what the last crash left: settled
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// try await invoker.transaction("order", key: "order-43", steps: steps).run()
/// ```
public struct JournaledInvoker: Sendable {
    /// Where commands are written down.
    public let journal: any CommandJournal
    /// The command types recovery can bring back.
    public let registry: CommandRegistry

    /// Creates an invoker on `journal`, decoding records with `registry`.
    public init(journal: any CommandJournal, registry: CommandRegistry) {
        self.journal = journal
        self.registry = registry
    }

    /// Journals `command` under `key`, executes it and marks it done; a key already done does
    /// not run again. Returns once the mark is durable.
    @discardableResult
    public func perform<C: JournaledCommand>(_ command: C, key: String) async throws -> CommandJournalRunResult {
        try await journal.run(command, as: registry.entry(command, key: key))
    }

    /// Journals `command` as `kind` with `arguments` (a command with receivers, registered with
    /// ``CommandRegistry/register(_:arguments:make:)``), executes it and marks it done.
    @discardableResult
    public func perform(
        _ command: any Command, kind: String, arguments: some Encodable, key: String
    ) async throws -> CommandJournalRunResult {
        try await journal.run(command, as: CommandRegistry.entry(kind: kind, arguments: arguments, key: key))
    }

    /// A durable transaction of `steps` on this invoker's journal.
    public func transaction(
        _ name: String, key: String, recovery: DurableTransactionRecovery = .compensate, steps: [DurableStep],
        observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) -> DurableTransaction {
        DurableTransaction(name, key: key, recovery: recovery, journal: journal, steps: steps, observer: observer)
    }
}
