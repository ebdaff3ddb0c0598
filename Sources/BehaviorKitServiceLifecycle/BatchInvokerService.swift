public import Commands
public import ServiceLifecycle

/// Keeps a `BatchInvoker` until a graceful shutdown, then runs what it still queues
/// (`BatchInvoker.flush()`) and returns once that ran: no command submitted is dropped by a
/// shutdown.
///
/// ```swift
/// let audit = BatchInvoker(batchSize: 100, timeLimit: .seconds(5))
/// let group = ServiceGroup(services: [BatchInvokerService(audit), server], logger: logger)
/// ```
public struct BatchInvokerService<C: Clock<Duration>>: Service {
    /// The invoker.
    public let invoker: BatchInvoker<C>

    /// A service flushing `invoker` on shutdown.
    public init(_ invoker: BatchInvoker<C>) {
        self.invoker = invoker
    }

    /// Waits for a graceful shutdown (or a cancellation), then flushes.
    public func run() async throws {
        try? await gracefulShutdown()
        await invoker.flush()
    }
}
