/// One job of ``CommandQueue/enqueue(contentsOf:)``: a command, step or transaction written
/// down as a journal entry under its key, due after its delay.
///
/// ```swift
/// let jobs = try orders.map { try QueuedJob(SendReceipt(order: $0), key: "receipt-\($0)") }
/// try await mail.enqueue(contentsOf: jobs)
/// ```
public struct QueuedJob: Sendable {
    /// The entry written down: its key, kind and encoded arguments.
    public var entry: CommandJournalEntry
    /// How long after the enqueue the job falls due.
    public var delay: Duration

    /// The job of `entry`, due after `delay`.
    public init(_ entry: CommandJournalEntry, after delay: Duration = .zero) {
        self.entry = entry
        self.delay = delay
    }

    /// The job of `command` under `key`, due after `delay`.
    ///
    /// - Throws: ``CommandRegistryError`` when `command` cannot be encoded.
    public init<C: JournaledCommand>(_ command: C, key: String, after delay: Duration = .zero) throws {
        self.init(try CommandRegistry.entry(kind: C.journalKind, arguments: command, key: key), after: delay)
    }

    /// The job of `step`, a step with an output, under `key`, due after `delay`.
    ///
    /// - Throws: ``CommandRegistryError`` when `step` cannot be encoded.
    public init<S: JournaledStep>(_ step: S, key: String, after delay: Duration = .zero) throws {
        self.init(try CommandRegistry.entry(kind: S.journalKind, arguments: step, key: key), after: delay)
    }

    /// The job of a command registered as `kind` with `arguments`, under `key`, due after `delay`.
    ///
    /// - Throws: ``CommandRegistryError`` when `arguments` cannot be encoded.
    public init(kind: String, arguments: some Encodable, key: String, after delay: Duration = .zero) throws {
        self.init(try CommandRegistry.entry(kind: kind, arguments: arguments, key: key), after: delay)
    }

    /// The job of `transaction` (its steps and recovery), due after `delay`.
    ///
    /// - Throws: ``CommandRegistryError`` when the transaction cannot be encoded.
    public init(_ transaction: DurableTransaction, after delay: Duration = .zero) throws {
        self.init(try transaction.entry, after: delay)
    }
}
