public import StateMachines

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One committed step of a durable instance: what caused it, what happened, and the
/// configuration it left. Steps make the instance's history; ``DurableMachine/send(_:to:id:)``
/// answers with the one it committed (or, for an event id seen before, the one recorded then).
public struct MachineStep<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable {
    /// The instance's version this step made: 1 for the start, then one more per step.
    public var sequence: Int64
    /// The event's id, when it had one.
    public var eventID: String?
    /// When it committed, by the machine's clock.
    public var at: Date
    /// What caused it.
    public var trigger: MachineTrigger<State, Event>
    /// For an event: the first transition it caused, or the refusal (a refusal is recorded too).
    public var outcome: Outcome<State, Event>?
    /// Every transition taken, in order (eventless, raised and done steps included).
    public var transitions: [Transition<State, Event>]
    /// The active states after the step, in document order.
    public var configuration: [State]
    /// Whether this answer is a step recorded earlier for the same event id (a retried request),
    /// not a step applied now. Not stored.
    public var isReplay: Bool

    /// Creates a step.
    public init(
        sequence: Int64, eventID: String?, at: Date, trigger: MachineTrigger<State, Event>,
        outcome: Outcome<State, Event>?, transitions: [Transition<State, Event>], configuration: [State],
        isReplay: Bool = false
    ) {
        self.sequence = sequence
        self.eventID = eventID
        self.at = at
        self.trigger = trigger
        self.outcome = outcome
        self.transitions = transitions
        self.configuration = configuration
        self.isReplay = isReplay
    }

    /// Whether the step was refused (an event no rule of the active states took).
    public var isRefusal: Bool { outcome?.refusal != nil }
}

extension MachineStep: Codable where State: Codable, Event: Codable {
    enum CodingKeys: String, CodingKey {
        case sequence, eventID, at, trigger, outcome, transitions, configuration
    }

    /// Reads a step as ``encode(to:)`` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int64.self, forKey: .sequence)
        eventID = try container.decodeIfPresent(String.self, forKey: .eventID)
        at = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .at))
        trigger = try container.decode(MachineTrigger<State, Event>.self, forKey: .trigger)
        outcome = try container.decodeIfPresent(Outcome<State, Event>.self, forKey: .outcome)
        transitions = try container.decode([Transition<State, Event>].self, forKey: .transitions)
        configuration = try container.decode([State].self, forKey: .configuration)
        isReplay = false
    }

    /// Writes the step (its time as seconds since 1970), without ``isReplay``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encodeIfPresent(eventID, forKey: .eventID)
        try container.encode(at.timeIntervalSince1970, forKey: .at)
        try container.encode(trigger, forKey: .trigger)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encode(transitions, forKey: .transitions)
        try container.encode(configuration, forKey: .configuration)
    }
}
