/// One part of a state's declaration: a transition, a timer, an entry or exit action, an effect.
///
/// You do not make these directly: write ``On``, ``Refuse``, ``After``, ``Entry``, ``Exit`` and
/// ``Effect`` inside ``In``, and the builder turns them into elements.
public struct StateElement<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    enum Kind: Sendable {
        case rule(
            event: Event, target: State?, guard: Guard<Context, Event>?, actions: [Action<Context, Event>],
            rejection: String?)
        case timer(delay: Duration, target: State, actions: [Action<Context, Event>])
        case entry(Action<Context, Event>)
        case exit(Action<Context, Event>)
        case effect(Effect<State, Event, Context>)
    }

    let kind: Kind
}

/// Collects the parts of one state.
@resultBuilder
public enum StateBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    public typealias Element = StateElement<State, Event, Context>

    public static func buildExpression(_ part: On<State, Event, Context>) -> [Element] { [part.element] }
    public static func buildExpression(_ part: Refuse<State, Event, Context>) -> [Element] { [part.element] }
    public static func buildExpression(_ part: After<State, Event, Context>) -> [Element] { [part.element] }
    public static func buildExpression(_ part: Entry<State, Event, Context>) -> [Element] { [part.element] }
    public static func buildExpression(_ part: Exit<State, Event, Context>) -> [Element] { [part.element] }
    public static func buildExpression(_ effect: Effect<State, Event, Context>) -> [Element] {
        [Element(kind: .effect(effect))]
    }
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    public static func buildOptional(_ parts: [Element]?) -> [Element] { parts ?? [] }
    public static func buildEither(first parts: [Element]) -> [Element] { parts }
    public static func buildEither(second parts: [Element]) -> [Element] { parts }
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}

/// Collects the states of a definition.
@resultBuilder
public enum DefinitionBuilder<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    public typealias Node = In<State, Event, Context>

    public static func buildExpression(_ node: Node) -> [Node] { [node] }
    public static func buildBlock(_ parts: [Node]...) -> [Node] { parts.flatMap { $0 } }
    public static func buildOptional(_ parts: [Node]?) -> [Node] { parts ?? [] }
    public static func buildEither(first parts: [Node]) -> [Node] { parts }
    public static func buildEither(second parts: [Node]) -> [Node] { parts }
    public static func buildArray(_ parts: [[Node]]) -> [Node] { parts.flatMap { $0 } }
}
