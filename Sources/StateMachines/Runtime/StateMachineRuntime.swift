public import BehaviorKitSync
public import Synchronization

/// A state machine for live use: safe to drive from many tasks, with timed transitions on an
/// injected clock, effects run as tasks, and observers of every transition and refusal.
///
/// It wraps a ``StateMachine`` value and never duplicates its logic: `send` locks, asks the
/// machine, and then arms the timers and effects of the states it entered (dropping those of
/// the states it left) and tells the observers.
///
/// ```swift
/// let runtime = StateMachineRuntime(vehicle, context: Vehicle(), clock: ContinuousClock())
/// runtime.send(.park)        // enters parking; a 5-second timer is armed
/// runtime.send(.brake)       // leaves parking: the timer is dropped and never fires
/// for await transition in runtime.transitions() { print(transition) }
/// ```
///
/// Actions and guards run while the runtime's lock is held. One that sends to its own runtime
/// gets ``Refusal/Reason/reentrant`` instead of a deadlock (raise the event with
/// ``Action/raise(_:)`` instead); one that reads `state` or `context` gets the values as they
/// are in the middle of the step. Observers and effects may send freely.
public final class StateMachineRuntime<
    State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, C: Clock<Duration>
>: @unchecked Sendable {
    /// A closure that hears each transition the runtime takes (see ``observe(_:)``).
    public typealias Observer = @Sendable (Transition<State, Event>) -> Void

    @usableFromInline let lock = Lock()
    @usableFromInline let clock: C
    @usableFromInline let core: UnsafeMutablePointer<RuntimeCore<State, Event, Context, C.Instant>>
    /// The thread running a step under the lock (0 for none), so that a call back into the
    /// runtime from that step is recognised.
    @usableFromInline let owner = Atomic<UInt>(0)
    /// The definition this runtime runs (immutable: reading it takes no lock and never reaches
    /// into the machine's changing state).
    public let definition: StateMachineDefinition<State, Event, Context>

    /// The compiled states, read for which have timers or effects (`hasActivity`); owned by the
    /// definition, which the machine keeps.
    @usableFromInline let activity: FixedBuffer<CompiledState>
    @usableFromInline let isChart: Bool

    /// Creates a runtime in the definition's initial state, arming its timers and effects.
    public init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context, clock: C) {
        self.clock = clock
        self.definition = definition
        core = .allocate(capacity: 1)
        core.initialize(to: RuntimeCore(machine: StateMachine(definition, context: context)))
        activity = definition.storage.engine.stateRecords
        isChart = definition.storage.chart.isChart
        lock.withLock { armActiveStates(restoring: nil) }
    }

    deinit {
        core.pointee.timerDriver?.cancel()
        for effect in core.pointee.effects { effect.task.cancel() }
        for stream in core.pointee.streams { stream.continuation.finish() }
        for waiter in core.pointee.idleWaiters { waiter.resume() }
        core.deinitialize(count: 1)
        core.deallocate()
    }

    /// Runs `body` on the core under the lock, or directly when called from the runtime's own
    /// step (a guard or action reading its runtime), which already holds it.
    @inlinable
    func read<Value>(_ body: (RuntimeCore<State, Event, Context, C.Instant>) -> Value) -> Value {
        if owner.load(ordering: .relaxed) == currentThreadIdentity() { return body(core.pointee) }
        return lock.withLock { body(core.pointee) }
    }

    /// The current state (in a statechart, the first active leaf in document order).
    public var state: State { read { $0.machine.state } }

    /// Every active state of a statechart, in document order (the current state of a flat one).
    public var configuration: [State] { read { $0.machine.configuration } }

    /// Whether `state` is active.
    public func isIn(_ state: State) -> Bool { read { $0.machine.isIn(state) } }

    /// The current context.
    public var context: Context { read { $0.machine.context } }

    /// Whether the machine reached a (top-level) final state.
    public var isFinished: Bool { read { $0.machine.isFinished } }

    /// Whether `event` would take a transition now, without running any action.
    public func can(_ event: Event) -> Bool { read { $0.machine.can(event) } }

    /// Sends one event.
    ///
    /// - Returns: the transition taken, or why the event was refused (``Refusal/Reason/stopped``
    ///   after ``stop()``, ``Refusal/Reason/reentrant`` from the runtime's own guard or action).
    @inlinable
    @discardableResult
    public func send(_ event: Event) -> Outcome<State, Event> {
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread { return refuseReentrant(event) }
        lock.lock()
        owner.store(thread, ordering: .relaxed)
        let outcome = step(event)
        owner.store(0, ordering: .relaxed)
        if core.pointee.pending.isEmpty {
            guard core.pointee.listeners > 0, let transition = outcome.transition else {
                lock.unlock()
                return outcome
            }
            if core.pointee.delivering {
                // Another thread is delivering: it delivers this one after the ones before it.
                core.pointee.pending.append(.transition(transition))
                lock.unlock()
                return outcome
            }
            core.pointee.delivering = true
            let observers = core.pointee.observers
            if core.pointee.streams.isEmpty {
                lock.unlock()
                for observer in observers { observer.observe(transition) }
            } else {
                let streams = core.pointee.streams
                lock.unlock()
                notify(transition, observers: observers, streams: streams)
            }
            finishDelivering()
            return outcome
        }
        if !isChart, core.pointee.listeners > 0, let transition = outcome.transition {
            core.pointee.pending.append(.transition(transition))
        }
        let deliver = !core.pointee.delivering
        if deliver { core.pointee.delivering = true }
        lock.unlock()
        if deliver { deliverPending() }
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
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread { return events.map(refuseReentrant) }
        lock.lock()
        owner.store(thread, ordering: .relaxed)
        for event in events {
            let outcome = step(event)
            if !isChart, core.pointee.listeners > 0, let transition = outcome.transition {
                core.pointee.pending.append(.transition(transition))
            }
            outcomes.append(outcome)
        }
        owner.store(0, ordering: .relaxed)
        let deliver = !core.pointee.delivering && !core.pointee.pending.isEmpty
        if deliver { core.pointee.delivering = true }
        lock.unlock()
        if deliver { deliverPending() }
        return outcomes
    }

    /// Runs one event through the machine and, when it entered or left states, swaps their
    /// timers and effects. Called with the lock held. A statechart's transitions (every
    /// microstep) and every refusal go to `pending` when someone listens.
    @inlinable
    func step(_ event: Event) -> Outcome<State, Event> {
        if core.pointee.isStopped {
            return refused(Refusal(state: core.pointee.machine.state, event: event, reason: .stopped))
        }
        let entry = core.pointee.machine.entryCount
        let outcome: Outcome<State, Event>
        if isChart {
            if core.pointee.listeners > 0 {
                let core = self.core
                outcome = core.pointee.machine.send(event) { core.pointee.pending.append(.transition($0)) }
            } else {
                outcome = core.pointee.machine.send(event)
            }
            if core.pointee.machine.entryCount != entry { rearmChart() }
        } else {
            let source = core.pointee.machine.stateIndex
            outcome = core.pointee.machine.send(event)
            if core.pointee.machine.entryCount != entry
                && (activity[source].hasActivity || activity[core.pointee.machine.stateIndex].hasActivity)
            {
                rearm()
            }
        }
        if core.pointee.refusalListeners > 0, let refusal = outcome.refusal {
            core.pointee.pending.append(.refusal(refusal))
        }
        return outcome
    }

    /// A refusal, queued for the refusal observers. Called with the lock held.
    @usableFromInline
    func refused(_ refusal: Refusal<State, Event>) -> Outcome<State, Event> {
        if core.pointee.refusalListeners > 0 { core.pointee.pending.append(.refusal(refusal)) }
        return .refused(refusal)
    }

    /// The answer to a guard or action sending to its own runtime: the lock is held by the step
    /// that called it, so the event is refused; the refusal observers hear of it afterwards.
    @usableFromInline
    func refuseReentrant(_ event: Event) -> Outcome<State, Event> {
        refused(Refusal(state: core.pointee.machine.state, event: event, reason: .reentrant))
    }

    /// Sends an event from an effect started by the entry `stamp` into `state`: dropped when
    /// that entry is over (the state was left, even if entered again since).
    func send(_ event: Event, fromEntry state: Int, stamp: UInt64) {
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread { return }
        lock.lock()
        guard core.pointee.machine.isCurrentEntry(state, stamp: stamp) else {
            lock.unlock()
            return
        }
        owner.store(thread, ordering: .relaxed)
        let outcome = step(event)
        owner.store(0, ordering: .relaxed)
        if !isChart, core.pointee.listeners > 0, let transition = outcome.transition {
            core.pointee.pending.append(.transition(transition))
        }
        let deliver = !core.pointee.delivering && !core.pointee.pending.isEmpty
        if deliver { core.pointee.delivering = true }
        lock.unlock()
        if deliver { deliverPending() }
    }

    /// Cancels every timer and effect and finishes every stream. Events sent afterwards are
    /// refused with ``Refusal/Reason/stopped`` and change nothing.
    public func stop() {
        let thread = currentThreadIdentity()
        let reentrant = owner.load(ordering: .relaxed) == thread
        if !reentrant { lock.lock() }
        core.pointee.isStopped = true
        disarm()
        core.pointee.timerDriver?.cancel()
        core.pointee.timerDriver = nil
        core.pointee.driverDeadline = nil
        let waiters = core.pointee.takeIdleWaitersIfIdle()
        let finished = core.pointee.streams.map(\.continuation)
        core.pointee.listeners -= core.pointee.streams.count
        core.pointee.streams.removeAll()
        if !reentrant { lock.unlock() }
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
