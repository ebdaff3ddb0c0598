import BehaviorKitSync

// Timers and effects: armed on entry to a state, dropped on exit. Every method here but the
// driver's is called with the lock held.

extension StateMachineRuntime {
    /// Drops the old state's timers and effects and arms the current state's.
    @inlinable
    func rearm() {
        disarm()
        armCurrentState()
    }

    @inlinable
    func disarm() {
        core.pointee.armed.removeAll(keepingCapacity: true)
        for task in core.pointee.effects { task.cancel() }
        core.pointee.effects.removeAll(keepingCapacity: true)
        core.pointee.runningEffects = 0
    }

    /// Arms the current state's timers and starts its effects.
    ///
    /// Timers cost no task of their own: one driver task sleeps until the earliest deadline. A
    /// timer dropped on exit is simply removed from `armed`; the driver, when it wakes, finds
    /// nothing due and sleeps again or ends. A new driver starts only when none runs or the new
    /// deadline is earlier than the one it sleeps for.
    @inlinable
    func armCurrentState() {
        guard !core.pointee.isStopped else { return }
        let state = core.pointee.machine.stateIndex
        guard activity[state] else { return }
        let epoch = core.pointee.machine.entryCount
        let start = clock.now
        var earliest: C.Instant?
        let first = core.pointee.machine.storage.table.timerStart[state]
        for index in first..<core.pointee.machine.storage.table.timerStart[state + 1] {
            let timer = ArmedTimer(
                delay: core.pointee.machine.storage.table.timerDelay[index], stateIndex: state,
                timerIndex: index - first, epoch: epoch)
            let deadline = start.advanced(by: timer.delay)
            core.pointee.armed.append((deadline, timer))
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        if let earliest, core.pointee.timerDriver == nil || core.pointee.driverDeadline.map({ earliest < $0 }) ?? true {
            core.pointee.timerDriver?.cancel()
            startTimerDriver(until: earliest)
        }
        if core.pointee.machine.storage.table.hasEffects[state] { startEffects() }
    }

    @usableFromInline
    func startEffects() {
        let machine = core.pointee.machine
        let effects = machine.storage.nodes[machine.stateIndex].effects
        guard !effects.isEmpty else { return }
        let entry = machine.entryCount
        let context = machine.context
        let sender = EventSender<Event> { [weak self] event in self?.send(event) }
        for effect in effects {
            core.pointee.runningEffects += 1
            core.pointee.effects.append(
                Task { [weak self] in
                    await effect.body(context, sender)
                    self?.effectFinished(entry: entry)
                })
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
        let now = clock.now
        let listening = core.pointee.listeners > 0
        var fired = 0
        // A cycle of zero-delay timers would never end: after 1,000 firings, yield and go on.
        while fired < 1_000, let index = earliestDueTimer(at: now) {
            let timer = core.pointee.armed.remove(at: index).timer
            fired += 1
            if let transition = core.pointee.machine.fire(timer) {
                rearm()
                if listening { core.pointee.pending.append(transition) }
            }
        }
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

    @usableFromInline
    func effectFinished(entry: UInt64) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            guard entry == core.pointee.machine.entryCount else { return [] }
            core.pointee.runningEffects -= 1
            return core.pointee.takeIdleWaitersIfIdle()
        }
        for waiter in waiters { waiter.resume() }
    }
}
