/// What made a machine move: an event, a timed transition that came due, an event raised by
/// an action, an eventless transition, or a state's completion.
public enum Trigger<Event: Hashable & Sendable>: Hashable, Sendable {
    /// An event sent from outside.
    case event(Event)
    /// A timer that came due after this delay.
    case timer(Duration)
    /// An event an action raised (see ``Action/raise(_:)``).
    case raised(Event)
    /// An eventless transition (see ``Always``).
    case eventless
    /// The transition's source is done (see ``OnDone``): SCXML's `done.state.ID`.
    case done
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

/// Encoded under the properties' names: the source, the target, the trigger (see ``Trigger``) and
/// whether it was internal; decoded from that form.
///
/// ```swift
/// try JSONEncoder().encode(machine.send(.open).transition)
/// // {"source":"closed","target":"open","trigger":{"case":"event","event":"open"},"isInternal":false}
/// ```
extension Transition: Codable where State: Codable, Event: Codable {}
