import BehaviorKitSync

/// A state machine for live use: safe to drive from many tasks, with timed transitions on an
/// injected clock, effects run as tasks, and observers of every transition.
///
/// It wraps a ``StateMachine`` value and never duplicates its logic: `send` locks, asks the
/// machine, and then arms the new state's timers and effects (cancelling the old ones) and
/// tells the observers.
///
/// ```swift
/// let runtime = StateMachineRuntime(vehicle, context: Vehicle(), clock: ContinuousClock())
/// runtime.send(.park)        // enters parking; a 5-second timer is armed
/// runtime.send(.brake)       // leaves parking: the timer is cancelled and never fires
/// for await transition in runtime.transitions() { print(transition) }
/// ```
///
/// Actions run while the runtime's lock is held: they must not call back into the runtime.
/// Observers and effects may.
public final class StateMachineRuntime<
    State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, C: Clock<Duration>
>: @unchecked Sendable {
    public typealias Observer = @Sendable (Transition<State, Event>) -> Void

    let lock = Lock()
    let clock: C
    var machine: StateMachine<State, Event, Context>
    /// The current state's timers, with their deadlines; cleared when the state is left.
    var armed: [(deadline: C.Instant, timer: ArmedTimer)] = []
    /// The one task that sleeps until the earliest deadline, and the deadline it sleeps for.
    var timerDriver: Task<Void, Never>?
    var driverDeadline: C.Instant?
    var effects: [Task<Void, Never>] = []
    var observers: [(id: UInt64, observe: Observer)] = []
    var streams: [(id: UInt64, continuation: AsyncStream<Transition<State, Event>>.Continuation)] = []
    var nextID: UInt64 = 0
    var pending: [Transition<State, Event>] = []
    var delivering = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var runningEffects = 0
    var isStopped = false

    /// Creates a runtime in the definition's initial state, arming its timers and effects.
    public init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context, clock: C) {
        self.clock = clock
        self.machine = StateMachine(definition, context: context)
        lock.withLock { armCurrentState() }
    }

    deinit {
        timerDriver?.cancel()
        for task in effects { task.cancel() }
        for stream in streams { stream.continuation.finish() }
        for waiter in idleWaiters { waiter.resume() }
    }

    /// The current state.
    public var state: State { lock.withLock { machine.state } }

    /// The current context.
    public var context: Context { lock.withLock { machine.context } }

    /// The state and context together, read at one instant.
    public var snapshot: MachineSnapshot<State, Context> { lock.withLock { machine.snapshot } }

    /// The definition this runtime runs.
    public var definition: StateMachineDefinition<State, Event, Context> { machine.definition }

    /// Sends one event.
    ///
    /// - Returns: the transition taken, or why the event was refused.
    @discardableResult
    public func send(_ event: Event) -> Outcome<State, Event> {
        lock.lock()
        let entry = machine.entryCount
        let outcome = machine.send(event)
        if case .transitioned(let transition) = outcome {
            record(transition, reentered: machine.entryCount != entry)
        }
        let drain = startDelivery()
        lock.unlock()
        if drain { deliver() }
        return outcome
    }

    /// Sends events in order under one acquisition of the lock: cheaper than one `send` each.
    ///
    /// - Returns: one outcome per event, in order.
    @discardableResult
    public func send(contentsOf events: some Sequence<Event>) -> [Outcome<State, Event>] {
        var outcomes: [Outcome<State, Event>] = []
        outcomes.reserveCapacity(events.underestimatedCount)
        lock.lock()
        for event in events {
            let entry = machine.entryCount
            let outcome = machine.send(event)
            if case .transitioned(let transition) = outcome {
                record(transition, reentered: machine.entryCount != entry)
            }
            outcomes.append(outcome)
        }
        let drain = startDelivery()
        lock.unlock()
        if drain { deliver() }
        return outcomes
    }

    /// Puts the runtime in the snapshot's state and context, cancelling the old state's timers
    /// and effects and arming the restored state's (timers for their full delay).
    ///
    /// - Throws: ``StateMachineError/unknownState(_:)``; the runtime is then unchanged.
    public func restore(_ snapshot: MachineSnapshot<State, Context>) throws(StateMachineError) {
        try lock.withLock { () throws(StateMachineError) in
            try machine.restore(snapshot)
            disarm()
            armCurrentState()
        }
    }

    /// Cancels every timer and effect and finishes every stream. Events sent afterwards still
    /// change the state, but arm nothing.
    public func stop() {
        let (waiters, finished) = lock.withLock {
            () -> ([CheckedContinuation<Void, Never>], [AsyncStream<Transition<State, Event>>.Continuation]) in
            isStopped = true
            disarm()
            timerDriver?.cancel()
            timerDriver = nil
            driverDeadline = nil
            defer { streams.removeAll() }
            return (takeIdleWaitersIfIdle(), streams.map(\.continuation))
        }
        // Outside the lock: finishing a stream runs its termination handler, which takes it.
        for continuation in finished { continuation.finish() }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until no timed transition is armed and no effect is running: for a command-line
    /// tool that must not exit before a pending timer fires, or a test waiting for quiet.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if armed.isEmpty && runningEffects == 0 { return true }
                idleWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

extension StateMachineRuntime where C == ContinuousClock {
    /// Creates a runtime on the continuous clock.
    public convenience init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context) {
        self.init(definition, context: context, clock: ContinuousClock())
    }
}
