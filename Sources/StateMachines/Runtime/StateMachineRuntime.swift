public import BehaviorKitSync

/// A state machine for live use: safe to drive from many tasks, with timed transitions on an
/// injected clock, effects run as tasks, and observers of every transition.
///
/// It wraps a ``StateMachine`` value and never duplicates its logic: `send` locks, asks the
/// machine, and then arms the new state's timers and effects (dropping the old ones) and tells
/// the observers.
///
/// ```swift
/// let runtime = StateMachineRuntime(vehicle, context: Vehicle(), clock: ContinuousClock())
/// runtime.send(.park)        // enters parking; a 5-second timer is armed
/// runtime.send(.brake)       // leaves parking: the timer is dropped and never fires
/// for await transition in runtime.transitions() { print(transition) }
/// ```
///
/// Actions run while the runtime's lock is held: they must not call back into the runtime.
/// Observers and effects may.
public final class StateMachineRuntime<
    State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, C: Clock<Duration>
>: @unchecked Sendable {
    public typealias Observer = @Sendable (Transition<State, Event>) -> Void

    @usableFromInline let lock = Lock()
    @usableFromInline let clock: C
    @usableFromInline let core: UnsafeMutablePointer<RuntimeCore<State, Event, Context, C.Instant>>
    /// The definition this runtime runs (immutable: reading it takes no lock and never reaches
    /// into the machine's changing state).
    public let definition: StateMachineDefinition<State, Event, Context>

    /// Which states have timers or effects; owned by the definition, which the machine keeps.
    @usableFromInline let activity: FixedBuffer<Bool>

    /// Creates a runtime in the definition's initial state, arming its timers and effects.
    public init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context, clock: C) {
        self.clock = clock
        self.definition = definition
        core = .allocate(capacity: 1)
        core.initialize(to: RuntimeCore(machine: StateMachine(definition, context: context)))
        activity = definition.storage.table.hasActivity
        lock.withLock { armCurrentState() }
    }

    deinit {
        core.pointee.timerDriver?.cancel()
        for task in core.pointee.effects { task.cancel() }
        for stream in core.pointee.streams { stream.continuation.finish() }
        for waiter in core.pointee.idleWaiters { waiter.resume() }
        core.deinitialize(count: 1)
        core.deallocate()
    }

    /// The current state.
    public var state: State { lock.withLock { core.pointee.machine.state } }

    /// The current context.
    public var context: Context { lock.withLock { core.pointee.machine.context } }

    /// The state and context together, read at one instant.
    public var snapshot: MachineSnapshot<State, Context> { lock.withLock { core.pointee.machine.snapshot } }

    /// Sends one event.
    ///
    /// - Returns: the transition taken, or why the event was refused.
    @inlinable
    @discardableResult
    public func send(_ event: Event) -> Outcome<State, Event> {
        lock.lock()
        let outcome = step(event)
        guard let transition = outcome.transition, core.pointee.listeners > 0 else {
            lock.unlock()
            return outcome
        }
        if core.pointee.delivering {
            // Another thread is delivering: it delivers this one after the ones before it.
            core.pointee.pending.append(transition)
            lock.unlock()
            return outcome
        }
        core.pointee.delivering = true
        let observers = core.pointee.observers
        let streams = core.pointee.streams
        lock.unlock()
        notify(transition, observers: observers, streams: streams)
        deliverPending()
        return outcome
    }

    /// Sends events in order under one acquisition of the lock: cheaper than one `send` each.
    ///
    /// - Returns: one outcome per event, in order.
    @inlinable
    @discardableResult
    public func send(contentsOf events: some Sequence<Event>) -> [Outcome<State, Event>] {
        var outcomes: [Outcome<State, Event>] = []
        outcomes.reserveCapacity(events.underestimatedCount)
        lock.lock()
        let listening = core.pointee.listeners > 0
        for event in events {
            let outcome = step(event)
            if listening, let transition = outcome.transition { core.pointee.pending.append(transition) }
            outcomes.append(outcome)
        }
        let deliver = !core.pointee.delivering && !core.pointee.pending.isEmpty
        if deliver { core.pointee.delivering = true }
        lock.unlock()
        if deliver { deliverPending() }
        return outcomes
    }

    /// Runs one event through the machine and, when it entered a state anew, swaps the old
    /// state's timers and effects for the new one's. Called with the lock held.
    @inlinable
    func step(_ event: Event) -> Outcome<State, Event> {
        let source = core.pointee.machine.stateIndex
        let entry = core.pointee.machine.entryCount
        let outcome = core.pointee.machine.send(event)
        if core.pointee.machine.entryCount != entry
            && (activity[source] || activity[core.pointee.machine.stateIndex])
        {
            rearm()
        }
        return outcome
    }

    /// Puts the runtime in the snapshot's state and context, dropping the old state's timers
    /// and effects and arming the restored state's (timers for their full delay).
    ///
    /// - Throws: ``StateMachineError/unknownState(_:)``; the runtime is then unchanged.
    public func restore(_ snapshot: MachineSnapshot<State, Context>) throws(StateMachineError) {
        try lock.withLock { () throws(StateMachineError) in
            try core.pointee.machine.restore(snapshot)
            rearm()
        }
    }

    /// Cancels every timer and effect and finishes every stream. Events sent afterwards still
    /// change the state, but arm nothing.
    public func stop() {
        let (waiters, finished) = lock.withLock {
            () -> ([CheckedContinuation<Void, Never>], [AsyncStream<Transition<State, Event>>.Continuation]) in
            core.pointee.isStopped = true
            disarm()
            core.pointee.timerDriver?.cancel()
            core.pointee.timerDriver = nil
            core.pointee.driverDeadline = nil
            defer {
                core.pointee.listeners -= core.pointee.streams.count
                core.pointee.streams.removeAll()
            }
            return (core.pointee.takeIdleWaitersIfIdle(), core.pointee.streams.map(\.continuation))
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
                if core.pointee.isIdle { return true }
                core.pointee.idleWaiters.append(continuation)
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
