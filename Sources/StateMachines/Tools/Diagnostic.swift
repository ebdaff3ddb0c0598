/// A problem ``StateMachineDefinition/validate()`` found in a definition.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// No path of transitions or timers leads from the initial state to this state (a final
        /// state leads nowhere; entering a state enters its ancestors and initial descendants).
        case unreachableState
        /// A state that is not final has no transition or timer that leaves it.
        case deadEnd
        /// A rule for an event can never be taken: an earlier rule for the same event in the same
        /// state has no guard.
        case conflictingTransitions
        /// A transition or timer targets a state (or the definition starts in one) that no ``In``
        /// declares.
        case undeclaredState
        /// A timer can never fire: its state is final, or a shorter (or equal, earlier) timer
        /// without a guard always leaves first.
        case timerNeverFires
        /// A final state declares a transition, refusal or timer: a final state takes no events.
        case ruleInFinalState
        /// A history state has no default: before its parent is first left, it enters the
        /// parent's initial state.
        case historyWithoutDefault
        /// A compound state's `initial` is not one of its descendants (its first child is used).
        case invalidInitial
        /// A statechart has more states than a configuration can hold (512); a flat machine has
        /// no such limit.
        case tooManyStates
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The states involved, by their descriptions.
    public let states: [String]
    /// The events involved, by their descriptions.
    public let events: [String]
    /// A sentence naming the problem.
    public let message: String

    /// Creates a diagnostic; ``StateMachineDefinition/validate()`` makes them.
    public init(kind: Kind, states: [String], events: [String], message: String) {
        self.kind = kind
        self.states = states
        self.events = events
        self.message = message
    }

    /// "unreachable: …": the kind of finding, then what it says.
    public var description: String { "\(kind.rawValue): \(message)" }
}
