internal import StatechartSemantics

extension StateMachine {
    /// The identity of `timer`: its state, its place among the state's timers and the visit that
    /// armed it.
    public func identity(of timer: ArmedTimer) -> TimerIdentity<State> {
        TimerIdentity(state: storage.states[timer.stateIndex], index: timer.timerIndex, visit: timer.epoch)
    }

    /// The timer `identity` names, while the visit that armed it lasts; `nil` once its state was
    /// left (or entered again), or when the definition has no such timer.
    ///
    /// Its delay is computed from the context now, as on entry when nothing changed since.
    public func armedTimer(_ identity: TimerIdentity<State>) -> ArmedTimer? {
        guard let state = storage.index[identity.state], identity.index >= 0,
            identity.index < storage.nodes[state].timers.count, isCurrentEntry(state, stamp: identity.visit),
            !isFinished
        else { return nil }
        let delay = storage.nodes[state].timers[identity.index].delay.resolve(context)
        return ArmedTimer(delay: delay, stateIndex: state, timerIndex: identity.index, epoch: identity.visit)
    }

    /// The effects of every active state, for this visit of it, in document order (each is
    /// `definition.effects(of: identity.state)[identity.index]`).
    public var activeEffects: [EffectIdentity<State>] {
        var effects: [EffectIdentity<State>] = []
        let visit = { (state: Int) in
            let count = storage.nodes[state].effects.count
            guard count > 0 else { return }
            let stamp = entryStamp(of: state)
            for index in 0..<count {
                effects.append(EffectIdentity(state: storage.states[state], index: index, visit: stamp))
            }
        }
        if storage.chart.isChart {
            if !run.isDone { run.active.forEachAscending(visit) }
        } else {
            visit(stateIndex)
        }
        return effects
    }

    /// Whether the visit that started the effect `identity` names still lasts: its events are
    /// for this machine only then.
    public func isCurrent(_ identity: EffectIdentity<State>) -> Bool {
        guard let state = storage.index[identity.state], identity.index >= 0,
            identity.index < storage.nodes[state].effects.count
        else { return false }
        return isCurrentEntry(state, stamp: identity.visit) && !isFinished
    }
}
