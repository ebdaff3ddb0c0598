/// One job of ``CommandQueue/enqueue(contentsOf:)``: a command, step or transaction written
/// down as a journal entry under its key, due after its delay, at its priority.
///
/// ```swift
/// let jobs = try orders.map { try QueuedJob(SendReceipt(order: $0), key: "receipt-\($0)") }
/// try await mail.enqueue(contentsOf: jobs)
/// let urgent = try QueuedJob(SendReceipt(order: 7), key: "receipt-7", priority: 10)
/// ```
public struct QueuedJob: Sendable {
    /// The entry written down: its key, kind and encoded arguments.
    public var entry: CommandJournalEntry
    /// How long after the enqueue the job falls due.
    public var delay: Duration
    /// Its priority: of the due jobs, the highest priority is claimed first (see
    /// ``CommandQueue/defaultPriority``).
    public var priority: Int
    /// Its partition (a customer, a tenant), or `nil`: see ``CommandQueue/concurrencyPerPartition``.
    public var partition: String?

    /// The job of `entry`, due after `delay`, at `priority`.
    public init(
        _ entry: CommandJournalEntry, after delay: Duration = .zero, priority: Int = CommandQueue.defaultPriority,
        partition: String? = nil
    ) {
        self.entry = entry
        self.delay = delay
        self.priority = priority
        self.partition = partition
    }

    /// The job of `command` (a ``JournaledCommand``, or a ``JournaledStep`` with an output)
    /// under `key`, due after `delay`, at `priority`.
    ///
    /// - Throws: ``CommandRegistryError`` when `command` cannot be encoded.
    public init<J: Journaled>(
        _ command: J, key: String, after delay: Duration = .zero, priority: Int = CommandQueue.defaultPriority,
        partition: String? = nil
    ) throws {
        self.init(
            try CommandRegistry.entry(kind: J.journalKind, arguments: command, key: key), after: delay,
            priority: priority, partition: partition)
    }

    /// The job of a command registered as `kind` with `arguments`, under `key`, due after `delay`, at `priority`.
    ///
    /// - Throws: ``CommandRegistryError`` when `arguments` cannot be encoded.
    public init(
        kind: String, arguments: some Encodable, key: String, after delay: Duration = .zero,
        priority: Int = CommandQueue.defaultPriority,
        partition: String? = nil
    ) throws {
        self.init(
            try CommandRegistry.entry(kind: kind, arguments: arguments, key: key), after: delay, priority: priority,
            partition: partition)
    }

    /// The job of `transaction` (its steps and recovery), due after `delay`, at `priority`.
    ///
    /// - Throws: ``CommandRegistryError`` when the transaction cannot be encoded.
    public init(
        _ transaction: DurableTransaction, after delay: Duration = .zero, priority: Int = CommandQueue.defaultPriority,
        partition: String? = nil
    ) throws {
        self.init(try transaction.entry, after: delay, priority: priority, partition: partition)
    }
}
