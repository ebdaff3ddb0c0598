@_exported import StateMachines

/// Compiles the type's `static let definition` into a `switch` when the package builds: the
/// machine then costs what a hand-written `switch` costs, and answers as `StateMachine` does.
///
/// ```swift
/// import StateMachineSwitch
///
/// @StateMachineSwitch
/// struct Turnstile {
///     static let definition = StateMachineDefinition<Gate, Push, Count>(initial: .locked) {
///         In(.locked) { On(.coin, to: .open) { $0.coins += 1 } }
///         In(.open) { On(.push, to: .locked) }
///     }
/// }
///
/// var gate = Turnstile(context: Count())
/// gate.send(.coin)    // .transitioned(locked → open on coin)
/// gate.state          // .open
/// ```
///
/// The macro adds `Configuration` (one case per configuration the definition can reach),
/// `current`, `context`, `init(context:)`, `state`, `configuration`, `isFinished` and
/// `send(_:)`, and conforms the type to ``SwitchedStateMachine``. Each action and guard runs as
/// written, inline. It compiles flat machines and statecharts — nested and parallel states,
/// guards, internal and external transitions, `Refuse`, `Entry`, `Exit`, final states — written as
/// literal calls with `.case` states and events and closures in place. Timed and eventless
/// transitions, history, done transitions, raised events and effects need the interpreter: the
/// macro names them as a build error, and `StateMachine` or `StateMachineRuntime` runs the
/// same `definition`.
@attached(
    member,
    names: named(Configuration), named(current), named(context), named(init), named(state), named(configuration),
    named(isFinished), named(send))
@attached(extension, conformances: SwitchedStateMachine)
public macro StateMachineSwitch() = #externalMacro(module: "StateMachineSwitchMacros", type: "StateMachineSwitchMacro")

/// A machine `@StateMachineSwitch` compiled from its `definition`.
public protocol SwitchedStateMachine: Sendable {
    /// The definition's states.
    associatedtype State: Hashable & Sendable
    /// The definition's events.
    associatedtype Event: Hashable & Sendable
    /// The user's data the actions read and write.
    associatedtype Context: Sendable

    /// The definition the `switch` was compiled from.
    static var definition: StateMachineDefinition<State, Event, Context> { get }

    /// Creates a machine in the definition's initial configuration and runs its entry actions.
    init(context: Context)

    /// The current state (in a statechart: the first active leaf in document order).
    var state: State { get }
    /// Every active state in document order.
    var configuration: [State] { get }
    /// The user's data the actions read and write.
    var context: Context { get set }
    /// Whether the machine is in a final state (for a statechart: a top-level final state).
    var isFinished: Bool { get }

    /// Sends `event`: the answer, actions and next configuration of `StateMachine.send(_:)`.
    @discardableResult
    mutating func send(_ event: Event) -> Outcome<State, Event>
}

extension SwitchedStateMachine {
    /// The same definition as an interpreted `StateMachine`: for what the `switch` does not do
    /// (timers through a runtime, snapshots, diagrams), and to check the two agree.
    public static func interpreted(context: Context) -> StateMachine<State, Event, Context> {
        StateMachine(definition, context: context)
    }
}
