public import ServiceLifecycle
public import StateMachines

/// Stops a `StateMachineRuntime` on a graceful shutdown: its timers and effects end, and it
/// refuses later events, so that nothing changes its state while the process winds down (take
/// its snapshot after).
///
/// ```swift
/// let orders = StateMachineRuntime(orderLifecycle, context: Order(), clock: ContinuousClock())
/// let group = ServiceGroup(services: [StateMachineRuntimeService(orders), server], logger: logger)
/// ```
public struct StateMachineRuntimeService<
    State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, C: Clock<Duration>
>: Service {
    /// The runtime.
    public let runtime: StateMachineRuntime<State, Event, Context, C>

    /// A service stopping `runtime` on shutdown.
    public init(_ runtime: StateMachineRuntime<State, Event, Context, C>) {
        self.runtime = runtime
    }

    /// Waits for a graceful shutdown (or a cancellation), then stops the runtime.
    public func run() async throws {
        try? await gracefulShutdown()
        runtime.stop()
    }
}
