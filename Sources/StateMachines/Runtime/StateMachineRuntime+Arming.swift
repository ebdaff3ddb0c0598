import BehaviorKitSync

// Timers and effects: armed on entry to a state, cancelled on exit. Every method here is called
// with the lock held.

extension StateMachineRuntime {
    /// Records a transition for the observers and, when the state was entered anew, swaps the
    /// old state's timers and effects for the new one's.
    func record(_ transition: Transition<State, Event>, reentered: Bool) {
        if reentered && !isStopped {
            disarm()
            armCurrentState()
        }
        if !observers.isEmpty || !streams.isEmpty {
            pending.append(transition)
        }
    }

    func disarm() {
        for task in timers { task.cancel() }
        for task in effects { task.cancel() }
        timers.removeAll(keepingCapacity: true)
        effects.removeAll(keepingCapacity: true)
        runningTimers = 0
        runningEffects = 0
    }

    func armCurrentState() {
        guard !isStopped else { return }
        let armed = machine.armedTimers
        let effectList = machine.definition.storage.nodes[machine.stateIndex].effects
        guard !armed.isEmpty || !effectList.isEmpty else { return }
        let start = clock.now
        let entry = machine.entryCount
        for timer in armed {
            let deadline = start.advanced(by: timer.delay)
            runningTimers += 1
            timers.append(
                Task { [weak self, clock] in
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return
                    }
                    self?.fire(timer)
                })
        }
        let context = machine.context
        let sender = EventSender<Event> { [weak self] event in self?.send(event) }
        for effect in effectList {
            runningEffects += 1
            effects.append(
                Task { [weak self] in
                    await effect.body(context, sender)
                    self?.effectFinished(entry: entry)
                })
        }
    }

    func fire(_ timer: ArmedTimer) {
        lock.lock()
        var waiters: [CheckedContinuation<Void, Never>] = []
        if timer.epoch == machine.entryCount {
            runningTimers -= 1
            if let transition = machine.fire(timer) {
                record(transition, reentered: true)
            }
            waiters = takeIdleWaitersIfIdle()
        }
        let drain = startDelivery()
        lock.unlock()
        for waiter in waiters { waiter.resume() }
        if drain { deliver() }
    }

    func effectFinished(entry: UInt64) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            guard entry == machine.entryCount else { return [] }
            runningEffects -= 1
            return takeIdleWaitersIfIdle()
        }
        for waiter in waiters { waiter.resume() }
    }

    func takeIdleWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
        guard runningTimers == 0 && runningEffects == 0 && !idleWaiters.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }
}
