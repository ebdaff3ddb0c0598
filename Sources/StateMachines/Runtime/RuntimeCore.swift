/// What a runtime tells its observers, in the order it happened.
@usableFromInline
enum RuntimeNotice<State: Hashable & Sendable, Event: Hashable & Sendable>: Sendable {
    case transition(Transition<State, Event>)
    case refusal(Refusal<State, Event>)
}

/// Everything a runtime changes, kept behind one pointer and touched only under its lock.
///
/// Holding it in raw memory rather than in the class's stored properties spares every access
/// the dynamic exclusivity check a class property costs; the lock already gives exclusivity.
@usableFromInline
struct RuntimeCore<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, Instant> {
    @usableFromInline typealias Observer = @Sendable (Transition<State, Event>) -> Void
    @usableFromInline typealias RefusalObserver = @Sendable (Refusal<State, Event>) -> Void
    @usableFromInline typealias Stream = AsyncStream<Transition<State, Event>>.Continuation

    // The fields read on every event come first: every one before `driverDeadline` (an
    // `Instant`, whose size the standard library keeps resilient) has an offset known when a
    // client specialises this code, so that reaching it needs no type metadata.
    @usableFromInline var machine: StateMachine<State, Event, Context>
    /// How many observers and streams listen: a plain integer, cheap to test on every event.
    @usableFromInline var listeners = 0
    @usableFromInline var refusalListeners = 0
    @usableFromInline var delivering = false
    @usableFromInline var isStopped = false
    /// Notices waiting for the thread that is delivering to reach them.
    @usableFromInline var pending: [RuntimeNotice<State, Event>] = []
    @usableFromInline var observers: [(id: UInt64, observe: Observer)] = []
    @usableFromInline var refusalObservers: [(id: UInt64, observe: RefusalObserver)] = []
    @usableFromInline var streams: [(id: UInt64, continuation: Stream)] = []
    /// The active states' timers with their deadlines; dropped when their state is left.
    @usableFromInline var armed: [(deadline: Instant, timer: ArmedTimer)] = []
    /// The state entries whose timers and effects are armed (statecharts).
    @usableFromInline var armedEntries: [(state: Int, stamp: UInt64)] = []
    /// The running effects, by the state entry that started them.
    @usableFromInline var effects: [(id: UInt64, state: Int, stamp: UInt64, task: Task<Void, Never>)] = []
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// The one task that sleeps until the earliest deadline, and the deadline it sleeps for.
    @usableFromInline var timerDriver: Task<Void, Never>?
    @usableFromInline var driverDeadline: Instant?

    @usableFromInline
    init(machine: StateMachine<State, Event, Context>) {
        self.machine = machine
    }

    /// Whether no timer is armed and no effect runs.
    @inlinable
    var isIdle: Bool { armed.isEmpty && effects.isEmpty }

    /// Hands over the idle waiters when the runtime has become idle.
    @inlinable
    mutating func takeIdleWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
        guard isIdle, !idleWaiters.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }
}
