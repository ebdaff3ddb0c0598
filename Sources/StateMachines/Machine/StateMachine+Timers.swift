public import StatechartSemantics

/// A timed transition armed on entry to a state. It is stale once the state has been left.
public struct ArmedTimer: Hashable, Sendable {
    /// How long after entry the timer is due (computed from the context on entry when the
    /// timer's delay is).
    public let delay: Duration
    @usableFromInline let stateIndex: Int
    @usableFromInline let timerIndex: Int
    @usableFromInline let epoch: UInt64

    @inlinable
    init(delay: Duration, stateIndex: Int, timerIndex: Int, epoch: UInt64) {
        self.delay = delay
        self.stateIndex = stateIndex
        self.timerIndex = timerIndex
        self.epoch = epoch
    }
}

extension StateMachine {
    /// The timed transitions of every active state, armed for this entry into it, in document
    /// order.
    ///
    /// Hand each to ``fire(_:)`` when its delay has passed; a timer armed before the machine
    /// left its state does nothing.
    public var armedTimers: [ArmedTimer] {
        var timers: [ArmedTimer] = []
        forEachArmedTimer { timers.append($0) }
        return timers
    }

    /// Calls `body` with each timer of the active states.
    func forEachArmedTimer(_ body: (ArmedTimer) -> Void) {
        if storage.chart.isChart {
            if run.isDone { return }
            run.active.forEachAscending { forEachTimer(of: $0, body) }
        } else {
            forEachTimer(of: stateIndex, body)
        }
    }

    /// Calls `body` with each timer of `state`, armed for its current entry.
    func forEachTimer(of state: Int, _ body: (ArmedTimer) -> Void) {
        let timers = storage.nodes[state].timers
        guard !timers.isEmpty else { return }
        let stamp = entryStamp(of: state)
        for (index, timer) in timers.enumerated() {
            body(ArmedTimer(delay: timer.delay.resolve(context), stateIndex: state, timerIndex: index, epoch: stamp))
        }
    }

    /// When `state` was last entered, as an entry count.
    @inlinable
    func entryStamp(of state: Int) -> UInt64 {
        storage.chart.isChart ? run.stamps[state] : epoch
    }

    /// Whether `state` is active and was entered at `stamp`: a timer or effect of that entry is
    /// still current.
    @inlinable
    func isCurrentEntry(_ state: Int, stamp: UInt64) -> Bool {
        if storage.chart.isChart {
            return !run.isDone && run.active.contains(state) && run.stamps[state] == stamp
        }
        return state == stateIndex && stamp == epoch
    }

    /// Takes a timed transition that came due, then (in a statechart) the eventless and raised
    /// steps that follow.
    ///
    /// - Returns: the transition, or `nil` when the timer is stale (the machine left the state,
    ///   or re-entered it, since the timer was armed) or its guard does not hold.
    @discardableResult
    public mutating func fire(_ timer: ArmedTimer) -> Transition<State, Event>? {
        fire(timer, onTransition: nil)
    }

    /// Takes a timed transition that came due, calling `onTransition` with it and every step
    /// that follows.
    @discardableResult
    public mutating func fire(
        _ timer: ArmedTimer, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Transition<State, Event>? {
        guard isCurrentEntry(timer.stateIndex, stamp: timer.epoch), !isFinished,
            timer.timerIndex < storage.nodes[timer.stateIndex].timers.count
        else { return nil }
        let rule = storage.nodes[timer.stateIndex].timers[timer.timerIndex]
        let target = storage.nodes[timer.stateIndex].timerTargets[timer.timerIndex]
        if let condition = rule.guard, !condition.body.holds(context, nil as Event?) { return nil }
        let transition = Transition<State, Event>(
            source: storage.states[timer.stateIndex], target: storage.states[target],
            trigger: .timer(timer.delay), isInternal: false)
        guard storage.chart.isChart else {
            enter(target, actions: rule.actions)
            onTransition?(transition)
            return transition
        }
        let chart = storage.chart
        let domain = chart.timerDomain[timer.stateIndex][timer.timerIndex]
        exitStates(run.active.intersection(chart.shape.below(domain)), event: nil)
        for action in rule.actions {
            if case .raise(let make) = action.body {
                if let raised = make(context, nil) { run.queue.append(.raised(raised)) }
            } else {
                action.body.run(&context, nil)
            }
        }
        // After the exits, which record the history that a transition to a history state enters.
        let entry =
            chart.timerIsDynamic[timer.stateIndex][timer.timerIndex]
            ? historyEntry(target: target, domain: domain)
            : chart.timerEntry[timer.stateIndex][timer.timerIndex]
        enterStates(entry, event: nil)
        onTransition?(transition)
        _ = settle(onTransition: onTransition)
        return transition
    }

    /// An identifier of the latest state entry: it changes on every external transition, and
    /// stays the same across internal ones.
    public var entryCount: UInt64 { epoch }
}
