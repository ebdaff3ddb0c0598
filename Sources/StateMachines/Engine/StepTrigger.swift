/// What a statechart's microstep is taken on.
@usableFromInline
enum StepTrigger<Event: Hashable & Sendable> {
    /// An event `send` received.
    case event(Event)
    /// An event an action raised, from the internal queue.
    case raised(Event)
    /// No event: the eventless transitions of the active states.
    case eventless
    /// The state at this index is done: its done transitions.
    case done(Int)

    /// The event the step's actions and guards read, if any.
    @inlinable
    var event: Event? {
        switch self {
        case .event(let event), .raised(let event): event
        case .eventless, .done: nil
        }
    }

    /// The trigger the step's transitions report.
    @inlinable
    var trigger: Trigger<Event> {
        switch self {
        case .event(let event): .event(event)
        case .raised(let event): .raised(event)
        case .eventless: .eventless
        case .done: .done
        }
    }
}
