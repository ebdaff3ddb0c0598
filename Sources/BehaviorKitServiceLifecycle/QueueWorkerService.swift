public import Commands
public import ServiceLifecycle

/// Runs a `QueueWorker` until a graceful shutdown, which stops its claims and waits until the
/// records it holds have settled (nothing is rolled back by a shutdown).
///
/// ```swift
/// let worker = QueueWorker(CommandQueue("orders", journal: journal), invoker: invoker, slots: 8)
/// let group = ServiceGroup(services: [CommandJournalService(journal), QueueWorkerService(worker)], logger: logger)
/// ```
public struct QueueWorkerService: Service {
    /// The worker.
    public let worker: QueueWorker

    /// A service running `worker`.
    public init(_ worker: QueueWorker) {
        self.worker = worker
    }

    /// Runs the worker until a graceful shutdown or a cancellation; returns once its claimed
    /// work has settled.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await worker.run() }
        await worker.invoker.idle()
    }
}
