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
        armed.removeAll(keepingCapacity: true)
        for task in effects { task.cancel() }
        effects.removeAll(keepingCapacity: true)
        runningEffects = 0
    }

    /// Arms the current state's timers and starts its effects.
    ///
    /// Timers cost no task of their own: one driver task sleeps until the earliest deadline. A
    /// timer disarmed on exit is simply dropped from `armed`; the driver, when it wakes, finds
    /// nothing due and sleeps again or ends. A new driver is started only when none runs or the
    /// new deadline is earlier than the one it sleeps for.
    func armCurrentState() {
        guard !isStopped else { return }
        let timers = machine.armedTimers
        let effectList = machine.definition.storage.nodes[machine.stateIndex].effects
        guard !timers.isEmpty || !effectList.isEmpty else { return }
        if !timers.isEmpty {
            let start = clock.now
            for timer in timers { armed.append((start.advanced(by: timer.delay), timer)) }
            let earliest = armed.map(\.deadline).min() ?? start
            if timerDriver == nil || driverDeadline.map({ earliest < $0 }) ?? true {
                timerDriver?.cancel()
                startTimerDriver(until: earliest)
            }
        }
        guard !effectList.isEmpty else { return }
        let entry = machine.entryCount
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

    private func startTimerDriver(until deadline: C.Instant) {
        driverDeadline = deadline
        timerDriver = Task { [weak self, clock] in
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
    /// driver can end.
    private func fireDueTimers() -> C.Instant? {
        lock.lock()
        if Task.isCancelled {
            lock.unlock()
            return nil
        }
        let now = clock.now
        var fired = 0
        // A cycle of zero-delay timers would never end: after 1,000 firings, yield and go on.
        while fired < 1_000, let index = earliestDueTimer(at: now) {
            let timer = armed.remove(at: index).timer
            fired += 1
            if let transition = machine.fire(timer) {
                record(transition, reentered: true)
            }
        }
        let next = armed.map(\.deadline).min()
        if next == nil {
            timerDriver = nil
            driverDeadline = nil
        } else {
            driverDeadline = next
        }
        let waiters = takeIdleWaitersIfIdle()
        let drain = startDelivery()
        lock.unlock()
        for waiter in waiters { waiter.resume() }
        if drain { deliver() }
        return next
    }

    private func earliestDueTimer(at now: C.Instant) -> Int? {
        var best: Int?
        for index in armed.indices where armed[index].deadline <= now {
            if let current = best, armed[current].deadline <= armed[index].deadline { continue }
            best = index
        }
        return best
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
        guard armed.isEmpty && runningEffects == 0 && !idleWaiters.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return idleWaiters
    }
}
