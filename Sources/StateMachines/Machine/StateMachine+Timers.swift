/// A timed transition armed on entry to a state. It is stale once the state has been left.
public struct ArmedTimer: Hashable, Sendable {
    /// How long after entry the timer is due.
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
    /// The timed transitions of the current state, armed for this entry into it.
    ///
    /// Hand each to ``fire(_:)`` when its delay has passed; a timer armed before the machine
    /// left its state does nothing.
    public var armedTimers: [ArmedTimer] {
        var timers: [ArmedTimer] = []
        forEachArmedTimer { timers.append($0) }
        return timers
    }

    /// Calls `body` with each timer of the current state, without allocating.
    @inlinable
    func forEachArmedTimer(_ body: (ArmedTimer) -> Void) {
        var index = storage.table.timerStart[stateIndex]
        let end = storage.table.timerStart[stateIndex &+ 1]
        while index < end {
            body(
                ArmedTimer(
                    delay: storage.table.timerDelay[index], stateIndex: stateIndex,
                    timerIndex: index &- storage.table.timerStart[stateIndex], epoch: epoch))
            index &+= 1
        }
    }

    /// Takes a timed transition that came due.
    ///
    /// - Returns: the transition, or `nil` when the timer is stale: the machine left the state
    ///   (or re-entered it) since the timer was armed.
    @discardableResult
    public mutating func fire(_ timer: ArmedTimer) -> Transition<State, Event>? {
        guard timer.epoch == epoch, timer.stateIndex == stateIndex, !isFinished else { return nil }
        let rule = storage.nodes[stateIndex].timers[timer.timerIndex]
        let source = stateIndex
        enter(rule.targetIndex, actions: rule.actions)
        return Transition(
            source: storage.states[source], target: storage.states[rule.targetIndex], trigger: .timer(rule.delay),
            isInternal: false)
    }

    /// An identifier of the current entry into the current state: it changes on every
    /// external transition, and stays the same across internal ones.
    public var entryCount: UInt64 { epoch }
}
