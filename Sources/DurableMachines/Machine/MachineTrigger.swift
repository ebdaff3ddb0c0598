public import StateMachines

/// What caused a step of a durable instance.
public enum MachineTrigger<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable {
    /// The instance started.
    case start
    /// An event was sent to it.
    case event(Event)
    /// A durable timer came due.
    case timer(TimerIdentity<State>)
    /// A durable timer came due later than the definition's ``MissedTimerPolicy`` allows, and was
    /// dropped without firing.
    case missedTimer(TimerIdentity<State>)
    /// An effect of a state sent an event to the visit that started it.
    case effect(EffectIdentity<State>, Event)
    /// The instance moved from version `from` of the definition to version `to`
    /// (``DurableMachine/upgrade(_:transform:)``).
    case upgrade(from: Int, to: Int)
}

extension MachineTrigger: Codable where State: Codable, Event: Codable {}

extension MachineTrigger: CustomStringConvertible {
    /// `start`, `event <e>`, `timer <state#index@visit>`, `missed timer …`, `effect … sent <e>`,
    /// `upgrade from version 1 to 2`.
    public var description: String {
        switch self {
        case .start: "start"
        case .event(let event): "event \(event)"
        case .timer(let timer): "timer \(timer)"
        case .missedTimer(let timer): "missed timer \(timer)"
        case .effect(let effect, let event): "effect \(effect) sent \(event)"
        case .upgrade(let from, let to): "upgrade from version \(from) to \(to)"
        }
    }
}
