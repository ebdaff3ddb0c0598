/// Everything a runtime changes, kept behind one pointer and touched only under its lock.
///
/// Holding it in raw memory rather than in the class's stored properties spares every access
/// the dynamic exclusivity check a class property costs; the lock already gives exclusivity.
@usableFromInline
struct RuntimeCore<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, Instant> {
    @usableFromInline typealias Observer = @Sendable (Transition<State, Event>) -> Void
    @usableFromInline typealias Stream = AsyncStream<Transition<State, Event>>.Continuation

    @usableFromInline var machine: StateMachine<State, Event, Context>
    /// The current state's timers with their deadlines; cleared when the state is left.
    @usableFromInline var armed: [(deadline: Instant, timer: ArmedTimer)] = []
    /// The one task that sleeps until the earliest deadline, and the deadline it sleeps for.
    @usableFromInline var timerDriver: Task<Void, Never>?
    @usableFromInline var driverDeadline: Instant?
    @usableFromInline var effects: [Task<Void, Never>] = []
    @usableFromInline var runningEffects = 0
    @usableFromInline var observers: [(id: UInt64, observe: Observer)] = []
    @usableFromInline var streams: [(id: UInt64, continuation: Stream)] = []
    @usableFromInline var nextID: UInt64 = 0
    /// Transitions waiting for the thread that is delivering to reach them.
    @usableFromInline var pending: [Transition<State, Event>] = []
    @usableFromInline var delivering = false
    @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
    @usableFromInline var isStopped = false

    @usableFromInline
    init(machine: StateMachine<State, Event, Context>) {
        self.machine = machine
    }

    /// How many observers and streams listen: a plain integer, cheap to test on every event.
    @usableFromInline var listeners = 0

    /// Whether no timer is armed and no effect runs.
    @inlinable
    var isIdle: Bool { armed.isEmpty && runningEffects == 0 }

    /// Hands over the idle waiters when the runtime has become idle.
    @inlinable
    mutating func takeIdleWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
        guard isIdle, !idleWaiters.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }
}
