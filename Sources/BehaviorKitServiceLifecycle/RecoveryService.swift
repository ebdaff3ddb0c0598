public import Commands
public import ServiceLifecycle

/// Settles the work that stopped workers left on a journal — at start, then every `interval`
/// — and, on a graceful shutdown, stops recovering and waits until the invoker's own work has
/// settled.
///
/// ```swift
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// let group = ServiceGroup(
///     services: [CommandJournalService(journal), RecoveryService(invoker), QueueWorkerService(worker), server],
///     gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// A worker that stopped holds its records until their leases expire (30 seconds by default),
/// so the first recovery at start may find nothing yet: the later ones take them over.
public struct RecoveryService: Service {
    /// The worker that recovers, and whose work a shutdown waits for.
    public let invoker: JournaledInvoker
    /// How often to look again; `nil`: only at start.
    public let interval: Duration?
    let policy: @Sendable (CommandJournalRecord) async -> CommandRecoveryAction
    let onReport: @Sendable (CommandRecoveryReport) -> Void

    /// A service recovering with `invoker` at start and every `interval`.
    ///
    /// - Parameters:
    ///   - invoker: the worker that recovers; a shutdown waits for its work.
    ///   - interval: how often to look again after the start; `nil`: only at start.
    ///   - policy: what to do with each command left pending (`JournaledInvoker.recover(takingOverFrom:policy:)`).
    ///   - onReport: called with each recovery's report (to log it, say).
    public init(
        _ invoker: JournaledInvoker, every interval: Duration? = .seconds(30),
        policy: @escaping @Sendable (CommandJournalRecord) async -> CommandRecoveryAction = { _ in .replay },
        onReport: @escaping @Sendable (CommandRecoveryReport) -> Void = { _ in }
    ) {
        self.invoker = invoker
        self.interval = interval
        self.policy = policy
        self.onReport = onReport
    }

    /// Recovers at start and every `interval` until a graceful shutdown (or cancellation), then
    /// waits until the invoker holds nothing. A recovery under way when the shutdown comes runs
    /// to its end: the shutdown never turns a completion into a rollback.
    ///
    /// - Throws: the journal's error when a recovery cannot read or write it.
    public func run() async throws {
        try await recoverOnce()
        if let interval {
            while true {
                do {
                    try await cancelWhenGracefulShutdown { try await invoker.sleep(for: interval) }
                } catch {
                    break
                }
                try await recoverOnce()
            }
        }
        await invoker.idle()
    }

    private func recoverOnce() async throws {
        let invoker = self.invoker
        let policy = self.policy
        onReport(try await Task { try await invoker.recover(policy: policy) }.value)
    }
}
