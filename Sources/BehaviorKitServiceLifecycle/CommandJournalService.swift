public import Commands
public import ServiceLifecycle

/// Closes a `CommandJournal` on a graceful shutdown, once the writes under way are done.
///
/// A `ServiceGroup` shuts its services down in the reverse of their order, so put this one
/// first: it closes the journal after the workers that use it have stopped.
///
/// ```swift
/// ServiceGroup(services: [CommandJournalService(journal), RecoveryService(invoker), server], logger: logger)
/// ```
public struct CommandJournalService: Service {
    /// The journal.
    public let journal: any CommandJournal

    /// A service closing `journal` on shutdown.
    public init(_ journal: any CommandJournal) {
        self.journal = journal
    }

    /// Waits for a graceful shutdown (or a cancellation), then closes the journal.
    ///
    /// - Throws: the journal's error when it cannot close.
    public func run() async throws {
        try? await gracefulShutdown()
        try await journal.close()
    }
}
