public import DurableMachines
public import ServiceLifecycle

/// Fires a durable machine's timers and runs its effects until a graceful shutdown, which stops
/// the loop (an effect cut short is run again by another worker once its lease ends; its events
/// are delivered once all the same).
///
/// ```swift
/// let orders = DurableMachine("order", definition: lifecycle, store: try SQLiteMachineStore(path: "orders.machines"))
/// let group = ServiceGroup(services: [DurableMachineService(orders, owner: "web-1"), server], logger: logger)
/// ```
public struct DurableMachineService<
    State: Hashable & Sendable & Codable, Event: Hashable & Sendable & Codable, Context: Sendable & Codable,
    C: Clock<Duration>
>: Service {
    /// The machine.
    public let machine: DurableMachine<State, Event, Context>
    /// This worker's name in effect leases (unique per process).
    public let owner: String
    /// How long to wait when there was nothing to do.
    public let pollInterval: Duration
    /// How long an effect's (or an outbox record's) lease lasts without renewal: how long a
    /// stopped process's claims wait before another process takes them.
    public let leaseDuration: Duration
    /// The clock the waits are measured on.
    public let clock: C

    /// A service running `machine`'s timers and effects as `owner`.
    public init(
        _ machine: DurableMachine<State, Event, Context>, owner: String, pollInterval: Duration = .milliseconds(100),
        leaseDuration: Duration = .seconds(30), clock: C = ContinuousClock()
    ) {
        self.machine = machine
        self.owner = owner
        self.pollInterval = pollInterval
        self.leaseDuration = leaseDuration
        self.clock = clock
    }

    /// Runs the timers and effects until a graceful shutdown or a cancellation.
    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await machine.runTimersAndEffects(
                owner: owner, pollInterval: pollInterval, leaseDuration: leaseDuration, clock: clock)
        }
    }
}
