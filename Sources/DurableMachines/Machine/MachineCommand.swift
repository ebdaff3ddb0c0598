public import Commands

/// A durable command a step emits onto a `CommandQueue`, under a key that names the step, so
/// that a step and the work it starts are never one without the other: a journal record of the
/// step's own commit when the store shares the journal's database (`SQLiteStore`), otherwise an
/// outbox record of that commit that a worker's timer and effect loop enqueues once.
///
/// ```swift
/// let orders = DurableMachine("order", definition: lifecycle, store: store, journal: journal) { step, order in
///     step.configuration == [.paid] ? [try MachineCommand(Ship(order: order.id), on: "shipping")] : []
/// }
/// ```
public struct MachineCommand: Hashable, Sendable {
    /// The queue it goes to.
    public var queue: String
    /// The command's kind and payload (its key is set when the step commits, unless given).
    public var entry: CommandJournalEntry
    /// How long after the relay it is due.
    public var delay: Duration
    /// Whether the instance hears how it ended (see ``TransactionReport``).
    public var reportsBack: Bool

    /// `command` on `queue`, due `delay` after it is enqueued, under `key` (default: the
    /// machine, the instance, the step and the command's place in it).
    public init<C: Journaled>(
        _ command: C, on queue: String, key: String? = nil, after delay: Duration = .zero
    )
        throws(CommandRegistryError)
    {
        self.queue = queue
        self.entry = try CommandRegistry.entry(kind: C.journalKind, arguments: command, key: key ?? "")
        self.delay = delay
        self.reportsBack = false
    }

    /// `transaction` (its steps and recovery, under its own key) on `queue`: with
    /// `reportsBack`, the instance is sent the event the machine's `report` makes of how it
    /// ended (done, compensated with the error that caused it, failed), once, even when another
    /// worker took it over after a crash.
    public init(
        _ transaction: DurableTransaction, on queue: String, after delay: Duration = .zero, reportsBack: Bool = true
    ) throws(CommandRegistryError) {
        self.queue = queue
        self.entry = try transaction.entry
        self.delay = delay
        self.reportsBack = reportsBack
    }

    /// A command registered as `kind` with `arguments`, on `queue`.
    public init(
        kind: String, arguments: some Encodable, on queue: String, key: String? = nil, after delay: Duration = .zero
    ) throws(CommandRegistryError) {
        self.queue = queue
        self.entry = try CommandRegistry.entry(kind: kind, arguments: arguments, key: key ?? "")
        self.delay = delay
        self.reportsBack = false
    }
}

/// What an outbox record holds: the command with its key, its queue and delay.
struct OutboxBody: Codable, Sendable {
    var queue: String
    var entry: CommandJournalEntry
    var delayMilliseconds: Int64
    /// Whether the instance hears how the command ended (`nil` in records written before).
    var reportsBack: Bool?
}
