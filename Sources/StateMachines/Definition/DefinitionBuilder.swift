/// One part of a state's declaration: a transition, a timer, an entry or exit action, an effect,
/// a nested state or a history state.
///
/// You do not make these directly: write ``On``, ``Refuse``, ``After``, ``Always``, ``OnDone``,
/// ``Entry``, ``Exit``, ``Effect``, ``In``, ``Parallel`` and ``History`` inside ``In``, and the
/// builder turns them into elements.
public struct StateElement<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    enum Kind: Sendable {
        case rule(RuleDraft<State, Event, Context>)
        case timer(TimerDraft<State, Event, Context>)
        case entry(Action<Context, Event>)
        case exit(Action<Context, Event>)
        case effect(Effect<State, Event, Context>)
        case child(In<State, Event, Context>)
        case history(state: State, deep: Bool, defaultTarget: State?)
    }

    let kind: Kind
}

extension StateElement {
    /// A rule on `match`: to `target` (none: the source stays), when `guard` holds (or always),
    /// running `actions`, or refusing with `rejection`; `keepsSource` keeps a compound source
    /// active when the target is a descendant.
    static func rule(
        _ match: RuleMatch<Event>, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        actions: [Action<Context, Event>] = [], rejection: String? = nil, keepsSource: Bool = false
    ) -> Self {
        StateElement(
            kind: .rule(
                RuleDraft(
                    match: match, target: target, guard: `guard`, actions: actions, rejection: rejection,
                    keepsSource: keepsSource)))
    }
}

/// A rule as written, before its states are numbered.
struct RuleDraft<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    var match: RuleMatch<Event>
    var target: State?
    var `guard`: Guard<Context, Event>?
    var actions: [Action<Context, Event>]
    var rejection: String?
    var keepsSource: Bool
}

/// A timer as written, before its states are numbered.
struct TimerDraft<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    var delay: TimerDelay<Context>
    var target: State
    var `guard`: Guard<Context, Event>?
    var actions: [Action<Context, Event>]
}

/// A timer's delay: fixed, or computed from the context when its state is entered.
public enum TimerDelay<Context>: Sendable {
    /// The same delay every time.
    case fixed(Duration)
    /// A delay computed from the context on entry, with a name for diagrams.
    case computed(String, @Sendable (Context) -> Duration)

    @inlinable
    func resolve(_ context: Context) -> Duration {
        switch self {
        case .fixed(let delay): delay
        case .computed(_, let delay): Swift.max(delay(context), .zero)
        }
    }
}

/// Collects the parts of one state.
@resultBuilder
public enum StateBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    /// One part of a state, whatever its kind.
    public typealias Element = StateElement<State, Event, Context>

    /// A transition: `On(.open, to: .open)`.
    public static func buildExpression(_ part: On<State, Event, Context>) -> [Element] { [part.element] }
    /// A refusal with a reason: `Refuse(.park, "Stop first")`.
    public static func buildExpression(_ part: Refuse<State, Event, Context>) -> [Element] { [part.element] }
    /// A timed transition: `After(.seconds(5), to: .stopped)`.
    public static func buildExpression(_ part: After<State, Event, Context>) -> [Element] { [part.element] }
    /// An entry action: `Entry("start parking") { … }`.
    public static func buildExpression(_ part: Entry<State, Event, Context>) -> [Element] { [part.element] }
    /// An exit action: `Exit("count") { … }`.
    public static func buildExpression(_ part: Exit<State, Event, Context>) -> [Element] { [part.element] }
    /// An eventless transition: `Always(to: .done, when: …)`.
    public static func buildExpression(_ part: Always<State, Event, Context>) -> [Element] { [part.element] }
    /// A transition taken when the state is done: `OnDone(to: .idle)`.
    public static func buildExpression(_ part: OnDone<State, Event, Context>) -> [Element] { [part.element] }
    /// A history state: `History(.resume, .deep, default: .running)`.
    public static func buildExpression(_ part: History<State, Event, Context>) -> [Element] { [part.element] }
    /// A child state: `In(.playing) { … }`.
    public static func buildExpression(_ child: In<State, Event, Context>) -> [Element] {
        [Element(kind: .child(child))]
    }
    /// A parallel child state: `Parallel(.running) { … }`.
    public static func buildExpression(_ child: Parallel<State, Event, Context>) -> [Element] {
        [Element(kind: .child(child.node))]
    }
    /// An effect, cancelled when the state is left: `Effect("poll") { … }`.
    public static func buildExpression(_ effect: Effect<State, Event, Context>) -> [Element] {
        [Element(kind: .effect(effect))]
    }
    /// Elements made elsewhere, such as a function shared by several states.
    public static func buildExpression(_ parts: [Element]) -> [Element] { parts }
    /// The parts in the order written.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    /// The parts of an `if` without `else`, when its condition holds.
    public static func buildOptional(_ parts: [Element]?) -> [Element] { parts ?? [] }
    /// The parts of an `if`'s first branch.
    public static func buildEither(first parts: [Element]) -> [Element] { parts }
    /// The parts of an `else` branch.
    public static func buildEither(second parts: [Element]) -> [Element] { parts }
    /// The parts of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}

/// Collects the states of a definition.
@resultBuilder
public enum DefinitionBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    /// A top-level state.
    public typealias Node = In<State, Event, Context>

    /// A state: `In(.stopped) { … }`.
    public static func buildExpression(_ node: Node) -> [Node] { [node] }
    /// A parallel state: `Parallel(.running) { … }`.
    public static func buildExpression(_ node: Parallel<State, Event, Context>) -> [Node] { [node.node] }
    /// The states in the order written.
    public static func buildBlock(_ parts: [Node]...) -> [Node] { parts.flatMap { $0 } }
    /// The states of an `if` without `else`, when its condition holds.
    public static func buildOptional(_ parts: [Node]?) -> [Node] { parts ?? [] }
    /// The states of an `if`'s first branch.
    public static func buildEither(first parts: [Node]) -> [Node] { parts }
    /// The states of an `else` branch.
    public static func buildEither(second parts: [Node]) -> [Node] { parts }
    /// The states of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[Node]]) -> [Node] { parts.flatMap { $0 } }
}
