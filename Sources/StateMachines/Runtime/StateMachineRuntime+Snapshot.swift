import BehaviorKitSync
import Synchronization

extension StateMachineRuntime {
    /// The configuration, history, context and every pending timer with its remaining time,
    /// read at one instant.
    public var snapshot: MachineSnapshot<State, Context> {
        read { core in
            var snapshot = core.machine.snapshot
            snapshot.takenAt = WallTime.now
            let now = clock.now
            snapshot.timers = core.armed.map { entry in
                PendingTimer(
                    state: core.machine.storage.states[entry.timer.stateIndex], index: entry.timer.timerIndex,
                    remaining: Swift.max(.zero, now.duration(to: entry.deadline)))
            }
            return snapshot
        }
    }

    /// Puts the runtime in the snapshot's configuration, history and context, dropping the old
    /// timers and effects. Each timer the snapshot lists is re-armed for its remaining time less
    /// `elapsed`: the time since the snapshot was taken, by default read from the calendar clock
    /// and the snapshot's ``MachineSnapshot/takenAt`` (zero when it has none). A snapshot
    /// without timers (from a value machine, or version 1) re-arms every timer for its full
    /// delay. Effects of the active states start again.
    ///
    /// ```swift
    /// try runtime.restore(saved)                          // its timers count the time it waited
    /// try runtime.restore(saved, elapsed: .seconds(4))   // an 8 s timer saved at 3 s fires in 1 s
    /// ```
    ///
    /// - Throws: ``StateMachineError``: unknown states (all named), an impossible configuration,
    ///   a newer version; the runtime is then unchanged.
    public func restore(
        _ snapshot: MachineSnapshot<State, Context>, elapsed: Duration? = nil
    ) throws(StateMachineError) {
        let elapsed = elapsed ?? snapshot.takenAt.map { WallTime.now - $0 } ?? .zero
        if owner.load(ordering: .relaxed) == currentThreadIdentity() { throw .reentrant("restore") }
        try lock.withLock { () throws(StateMachineError) in
            try core.pointee.machine.restore(snapshot)
            disarm()
            let elapsed = Swift.max(elapsed, .zero)
            let pending = snapshot.timers?.map { timer in
                var timer = timer
                // Both are at least zero: the difference cannot overflow.
                timer.remaining = timer.remaining <= elapsed ? .zero : Swift.max(timer.remaining, .zero) - elapsed
                return timer
            }
            armActiveStates(restoring: pending)
        }
    }
}
