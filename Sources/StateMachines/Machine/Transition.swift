/// What made a machine move: an event, or a timed transition that came due.
public enum Trigger<Event: Hashable & Sendable>: Hashable, Sendable {
    case event(Event)
    case timer(Duration)
}

/// A transition a machine took: from which state, to which, and on what.
public struct Transition<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable {
    /// The state the machine was in.
    public let source: State
    /// The state the machine is in now (the same as `source` for an internal transition).
    public let target: State
    /// The event or timer that caused it.
    public let trigger: Trigger<Event>
    /// Whether the state was kept without exit and entry.
    public let isInternal: Bool

    /// Creates a transition record, as the machine does; for tests and replays.
    @inlinable
    public init(source: State, target: State, trigger: Trigger<Event>, isInternal: Bool) {
        self.source = source
        self.target = target
        self.trigger = trigger
        self.isInternal = isInternal
    }
}

extension Transition: CustomStringConvertible {
    public var description: String {
        let cause: String
        switch trigger {
        case .event(let event): cause = "\(event)"
        case .timer(let delay): cause = "after \(delay.label)"
        }
        return isInternal ? "\(source) on \(cause) (internal)" : "\(source) → \(target) on \(cause)"
    }
}
