/// Which timed transition, armed by which visit of its state: the state, the timer's place
/// among the state's timers (in the order written), and the visit (the machine's entry count
/// when the state was entered).
///
/// A timer saved by its identity can be fired after a restore, in another process, hours
/// later: ``StateMachine/armedTimer(_:)`` finds it again while that visit lasts, and never in
/// a later visit of the same state.
///
/// ```swift
/// let saved = machine.armedTimers.map(machine.identity(of:))   // Codable when State is
/// // … restore the machine's snapshot elsewhere …
/// if let timer = machine.armedTimer(saved[0]) { machine.fire(timer) }
/// ```
public struct TimerIdentity<State: Hashable & Sendable>: Hashable, Sendable {
    /// The state whose timer it is.
    public var state: State
    /// Which of the state's timers, in the order written.
    public var index: Int
    /// The visit of `state` that armed it.
    public var visit: UInt64

    /// Creates an identity.
    public init(state: State, index: Int, visit: UInt64) {
        self.state = state
        self.index = index
        self.visit = visit
    }
}

/// Which effect of which visit of its state: the state, the effect's place among the state's
/// effects (in the order written), and the visit (the machine's entry count when the state was
/// entered). An effect's events are meant for the visit that started it, and no other.
public struct EffectIdentity<State: Hashable & Sendable>: Hashable, Sendable {
    /// The state whose effect it is.
    public var state: State
    /// Which of the state's effects, in the order written.
    public var index: Int
    /// The visit of `state` that started it.
    public var visit: UInt64

    /// Creates an identity.
    public init(state: State, index: Int, visit: UInt64) {
        self.state = state
        self.index = index
        self.visit = visit
    }
}

extension TimerIdentity: Codable where State: Codable {}
extension EffectIdentity: Codable where State: Codable {}

extension TimerIdentity: CustomStringConvertible {
    /// `state#index@visit`.
    public var description: String { "\(state)#\(index)@\(visit)" }
}

extension EffectIdentity: CustomStringConvertible {
    /// `state#index@visit`.
    public var description: String { "\(state)#\(index)@\(visit)" }
}
