/// A timed transition armed on entry to a state. It is stale once the state has been left.
public struct ArmedTimer: Hashable, Sendable {
    /// How long after entry the timer is due.
    public let delay: Duration
    let stateIndex: Int
    let timerIndex: Int
    let epoch: UInt64
}

extension StateMachine {
    /// The timed transitions of the current state, armed for this entry into it.
    ///
    /// Hand each to ``fire(_:)`` when its delay has passed; a timer armed before the machine
    /// left its state does nothing.
    public var armedTimers: [ArmedTimer] {
        storage.nodes[stateIndex].timers.enumerated().map { index, timer in
            ArmedTimer(delay: timer.delay, stateIndex: stateIndex, timerIndex: index, epoch: epoch)
        }
    }

    /// Takes a timed transition that came due.
    ///
    /// - Returns: the transition, or `nil` when the timer is stale: the machine left the state
    ///   (or re-entered it) since the timer was armed.
    @discardableResult
    public mutating func fire(_ timer: ArmedTimer) -> Transition<State, Event>? {
        guard timer.epoch == epoch, timer.stateIndex == stateIndex, !storage.finalFlags[stateIndex] else { return nil }
        let rule = storage.nodes[stateIndex].timers[timer.timerIndex]
        let source = stateIndex
        enter(rule.targetIndex, from: source, actions: rule.actions, event: nil)
        return Transition(
            source: storage.states[source], target: storage.states[rule.targetIndex], trigger: .timer(rule.delay),
            isInternal: false)
    }

    /// An identifier of the current entry into the current state: it changes on every
    /// external transition, and stays the same across internal ones.
    public var entryCount: UInt64 { epoch }
}
