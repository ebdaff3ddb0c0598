import BehaviorKitSync
public import StatechartSemantics
import Synchronization

// Timers and effects: armed on entry to a state, dropped on exit. Every method here but the
// driver's is called with the lock held.

extension StateMachineRuntime {
    /// Runs `body` under the lock, or directly on the thread whose step holds it already.
    func locked<Value>(_ body: () -> Value) -> Value {
        if owner.load(ordering: .relaxed) == currentThreadIdentity() { return body() }
        return lock.withLock(body)
    }

    /// Drops the old state's timers and effects and arms the current state's (flat machines).
    @inlinable
    func rearm() {
        disarm()
        armActiveStates(restoring: nil)
    }

    @inlinable
    func disarm() {
        // Emptying an empty array still costs a call: test first.
        if !core.pointee.armed.isEmpty { core.pointee.armed.removeAll(keepingCapacity: true) }
        if !core.pointee.armedEntries.isEmpty { core.pointee.armedEntries.removeAll(keepingCapacity: true) }
        if !core.pointee.effects.isEmpty {
            for effect in core.pointee.effects { effect.task.cancel() }
            core.pointee.effects.removeAll(keepingCapacity: true)
        }
    }

    /// Drops the timers and effects of the state entries that are over, and arms those of the
    /// entries that are new (statecharts).
    @inlinable
    func rearmChart() {
        let machine = core.pointee.machine
        if core.pointee.isStopped || machine.isFinished {
            disarm()
            return
        }
        core.pointee.armed.removeAll { !machine.isCurrentEntry($0.timer.stateIndex, stamp: $0.timer.epoch) }
        for effect in core.pointee.effects where !machine.isCurrentEntry(effect.state, stamp: effect.stamp) {
            effect.task.cancel()
        }
        core.pointee.effects.removeAll { !machine.isCurrentEntry($0.state, stamp: $0.stamp) }
        core.pointee.armedEntries.removeAll { !machine.isCurrentEntry($0.state, stamp: $0.stamp) }
        armActiveStates(restoring: nil)
    }

    /// Arms the timers and starts the effects of every active state entry not armed yet. With
    /// `restoring`, a state's timers are armed for the remaining times it gives (a timer it
    /// leaves out is not armed).
    ///
    /// Timers cost no task of their own: one driver task sleeps until the earliest deadline. A
    /// timer dropped on exit is simply removed from `armed`; the driver, when it wakes, finds
    /// nothing due and sleeps again or ends. A new driver starts only when none runs or the new
    /// deadline is earlier than the one it sleeps for.
    @inlinable
    func armActiveStates(restoring: [PendingTimer<State>]?) {
        // Read through the pointer field by field: calling a method of the machine in place
        // would copy it.
        guard !core.pointee.isStopped else { return }
        if isChart {
            guard !core.pointee.machine.run.isDone else { return }
        } else {
            guard !core.pointee.machine.storage.engine.stateRecords[core.pointee.machine.stateIndex].isFinal else {
                return
            }
        }
        var earliest: C.Instant?
        if isChart {
            var entries: [Int] = []
            let machine = core.pointee.machine
            machine.run.active.forEachAscending { state in
                if activity[state].hasActivity
                    && !core.pointee.armedEntries.contains(where: {
                        $0.state == state && $0.stamp == machine.run.stamps[state]
                    })
                {
                    entries.append(state)
                }
            }
            guard !entries.isEmpty else { return }
            let start = clock.now
            for state in entries { arm(state, start: start, restoring: restoring, earliest: &earliest) }
        } else {
            let state = core.pointee.machine.stateIndex
            guard activity[state].hasActivity else { return }
            arm(state, start: clock.now, restoring: restoring, earliest: &earliest)
        }
        if let earliest, core.pointee.timerDriver == nil || core.pointee.driverDeadline.map({ earliest < $0 }) ?? true {
            core.pointee.timerDriver?.cancel()
            startTimerDriver(until: earliest)
        }
    }

    /// Arms the timers of the current entry into `state` from `start` and starts its effects.
    @inlinable
    func arm(_ state: Int, start: C.Instant, restoring: [PendingTimer<State>]?, earliest: inout C.Instant?) {
        let stamp = isChart ? core.pointee.machine.run.stamps[state] : core.pointee.machine.epoch
        // A flat machine has one entry at a time: its timers and effects are all of it.
        if isChart { core.pointee.armedEntries.append((state, stamp)) }
        let first = core.pointee.machine.storage.engine.stateRecords[state].timerStart
        let count = core.pointee.machine.storage.engine.stateRecords[state].timerEnd &- first
        for index in 0..<count {
            var delay = core.pointee.machine.storage.engine.timerDelays[first &+ index].resolve(
                core.pointee.machine.context)
            if let restoring {
                let name = core.pointee.machine.storage.states[state]
                guard let pending = restoring.first(where: { $0.index == index && $0.state == name }) else { continue }
                delay = pending.remaining
            }
            let deadline = start.advanced(by: Swift.max(delay, .zero))
            core.pointee.armed.append(
                (deadline, ArmedTimer(delay: delay, stateIndex: state, timerIndex: index, epoch: stamp)))
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        if core.pointee.machine.storage.engine.stateRecords[state].hasEffects { startEffects(of: state, stamp: stamp) }
    }

    @usableFromInline
    func startEffects(of state: Int, stamp: UInt64) {
        let effects = core.pointee.machine.storage.nodes[state].effects
        let context = core.pointee.machine.context
        let sender = EventSender<Event> { [weak self] event in self?.send(event, fromEntry: state, stamp: stamp) }
        for effect in effects {
            core.pointee.nextID += 1
            let id = core.pointee.nextID
            core.pointee.effects.append(
                (
                    id, state, stamp,
                    Task { [weak self] in
                        await effect.body(context, sender)
                        self?.effectFinished(id: id)
                    }
                ))
        }
    }

    @usableFromInline
    func startTimerDriver(until deadline: C.Instant) {
        core.pointee.driverDeadline = deadline
        core.pointee.timerDriver = Task { [weak self, clock] in
            var next = deadline
            while true {
                do {
                    try await clock.sleep(until: next, tolerance: nil)
                } catch {
                    return
                }
                guard let self, let following = self.fireDueTimers() else { return }
                next = following
            }
        }
    }

    /// Fires every timer that is due; returns the next deadline to sleep for, or `nil` when the
    /// driver can end. Called by the driver, without the lock.
    @usableFromInline
    func fireDueTimers() -> C.Instant? {
        lock.lock()
        if Task.isCancelled {
            lock.unlock()
            return nil
        }
        owner.store(currentThreadIdentity(), ordering: .relaxed)
        let now = clock.now
        let listening = core.pointee.listeners > 0
        var fired = 0
        // A cycle of zero-delay timers would never end: after 1,000 firings, yield and go on.
        while fired < 1_000, let index = earliestDueTimer(at: now) {
            let timer = core.pointee.armed.remove(at: index).timer
            fired += 1
            let core = self.core
            let transition = core.pointee.machine.fire(
                timer, onTransition: listening ? { core.pointee.pending.append(.transition($0)) } : nil)
            if transition != nil {
                if isChart { rearmChart() } else { rearm() }
            }
        }
        owner.store(0, ordering: .relaxed)
        let next = core.pointee.armed.map(\.deadline).min()
        core.pointee.driverDeadline = next
        if next == nil { core.pointee.timerDriver = nil }
        let waiters = core.pointee.takeIdleWaitersIfIdle()
        let deliver = !core.pointee.delivering && !core.pointee.pending.isEmpty
        if deliver { core.pointee.delivering = true }
        lock.unlock()
        for waiter in waiters { waiter.resume() }
        if deliver { deliverPending() }
        return next
    }

    private func earliestDueTimer(at now: C.Instant) -> Int? {
        var best: Int?
        for (index, entry) in core.pointee.armed.enumerated() where entry.deadline <= now {
            if let current = best, core.pointee.armed[current].deadline <= entry.deadline { continue }
            best = index
        }
        return best
    }

    func effectFinished(id: UInt64) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            core.pointee.effects.removeAll { $0.id == id }
            return core.pointee.takeIdleWaitersIfIdle()
        }
        for waiter in waiters { waiter.resume() }
    }
}
