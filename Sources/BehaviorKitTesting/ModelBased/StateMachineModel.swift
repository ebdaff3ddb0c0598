public import StateMachines

/// Model-based testing of a state machine definition, as `@xstate/graph` does it: explores the
/// machine breadth first by sending each of the given events (and firing each armed timer) in
/// every state it reaches, then gives the shortest paths that reach every state or take every
/// transition, and runs them against your system with your assertions.
///
/// ```swift
/// let model = StateMachineModel(vehicle, context: Vehicle(), events: [.accelerate, .brake, .park])
/// #expect(model.missedRules.isEmpty)                       // every rule is taken by some path
/// try model.run(model.transitionCoverage(), system: { RealVehicle() }) { car, step in
///     try car.perform(step)                                // drive the real thing
/// } check: { car, machine in
///     #expect(car.state == machine.state)                  // and compare it with the model
/// }
/// ```
public struct StateMachineModel<
    State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable, Key: Hashable
> {
    /// A transition of the explored graph: from the state with `key`, `step` took `transitions`.
    public struct Edge {
        /// The shortest path to the edge's source.
        public let path: ModelPath<State, Event>
        /// The step that takes the edge.
        public let step: ModelStep<Event>
        /// The transitions the step took.
        public let transitions: [Transition<State, Event>]
    }

    /// The definition explored.
    public let definition: StateMachineDefinition<State, Event, Context>
    /// Every reached state's shortest path, in breadth-first order.
    public let statePaths: [ModelPath<State, Event>]
    /// Every edge of the explored graph, in breadth-first order.
    public let edges: [Edge]
    /// Whether exploration stopped at `maxStates` before the graph was complete.
    public let isTruncated: Bool
    /// The context every path starts from.
    public let contextAtStart: Context

    /// Explores the machine that starts with `context`.
    ///
    /// - Parameters:
    ///   - definition: the machine's definition.
    ///   - context: the context the machine starts with.
    ///   - events: the events to try in every state.
    ///   - includeTimers: whether firing an armed timer is a step too.
    ///   - key: what makes two machines the same state of the graph; by default the
    ///     configuration, so that a context that grows without bound still gives a finite graph.
    ///   - maxStates: a bound on the states explored.
    public init(
        _ definition: StateMachineDefinition<State, Event, Context>, context: Context, events: [Event],
        includeTimers: Bool = true, maxStates: Int = 10_000,
        key: @escaping (StateMachine<State, Event, Context>) -> Key
    ) {
        self.definition = definition
        self.contextAtStart = context
        var queue = [
            (
                StateMachine(definition, context: context),
                ModelPath<State, Event>(steps: [], transitions: [], configuration: [])
            )
        ]
        queue[0].1 = ModelPath(steps: [], transitions: [], configuration: queue[0].0.configuration)
        var seen: Set<Key> = [key(queue[0].0)]
        var statePaths: [ModelPath<State, Event>] = []
        var edges: [Edge] = []
        var head = 0
        var truncated = false
        while head < queue.count {
            let (machine, path) = queue[head]
            head += 1
            statePaths.append(path)
            var steps = events.map { ModelStep<Event>.send($0) }
            if includeTimers {
                steps += machine.armedTimers.enumerated().map { .timer(position: $0.offset, delay: $0.element.delay) }
            }
            for step in steps {
                var next = machine
                let taken = Self.apply(step, to: &next)
                guard !taken.isEmpty else { continue }
                edges.append(Edge(path: path, step: step, transitions: taken))
                guard seen.insert(key(next)).inserted else { continue }
                if seen.count > maxStates {
                    truncated = true
                    continue
                }
                queue.append(
                    (
                        next,
                        ModelPath(
                            steps: path.steps + [step], transitions: path.transitions + [taken],
                            configuration: next.configuration)
                    ))
            }
        }
        self.statePaths = statePaths
        self.edges = edges
        self.isTruncated = truncated
    }

    /// Takes `step` on `machine`; returns the transitions it took (none when it was refused).
    public static func apply(
        _ step: ModelStep<Event>, to machine: inout StateMachine<State, Event, Context>
    ) -> [Transition<State, Event>] {
        var taken: [Transition<State, Event>] = []
        switch step {
        case .send(let event):
            machine.send(event) { taken.append($0) }
        case .timer(let position, _):
            let timers = machine.armedTimers
            guard position < timers.count else { return [] }
            machine.fire(timers[position]) { taken.append($0) }
        }
        return taken
    }

    /// The shortest path to every reached state (`getShortestPaths`).
    public func shortestPaths() -> [ModelPath<State, Event>] { statePaths }

    /// One shortest path per edge of the graph: together they take every transition the
    /// exploration found, each at least once.
    public func transitionCoverage() -> [ModelPath<State, Event>] {
        edges.map { edge in
            var machine = StateMachine(definition, context: contextAtStart)
            for step in edge.path.steps { _ = Self.apply(step, to: &machine) }
            _ = Self.apply(edge.step, to: &machine)
            return ModelPath(
                steps: edge.path.steps + [edge.step], transitions: edge.path.transitions + [edge.transitions],
                configuration: machine.configuration)
        }
    }

    /// The definition's transitions (rules with a target, timers) that no explored edge takes:
    /// empty when the events given reach all of them.
    public var missedRules: [String] {
        var taken: Set<String> = []
        for edge in edges {
            for transition in edge.transitions { taken.insert(Self.signature(transition.source, transition.target)) }
        }
        var missed: [String] = []
        for rule in definition.rules where rule.rejection == nil {
            let target = rule.target ?? rule.source
            if !taken.contains(Self.signature(rule.source, target)) {
                missed.append("\(rule.source) → \(target) on \(rule.trigger)")
            }
        }
        for rule in definition.timedRules where !taken.contains(Self.signature(rule.source, rule.target)) {
            missed.append("\(rule.source) → \(rule.target) on a timer")
        }
        return missed
    }

    private static func signature(_ source: State, _ target: State) -> String { "\(source)\u{1}\(target)" }

    /// Runs each path on a fresh system and a fresh model: `perform` drives the system with each
    /// step, and `check` compares the system with the model after the start and after each step.
    public func run<System>(
        _ paths: [ModelPath<State, Event>], system: () throws -> System,
        perform: (inout System, ModelStep<Event>) throws -> Void,
        check: (System, StateMachine<State, Event, Context>) throws -> Void
    ) throws {
        for path in paths {
            var subject = try system()
            var machine = StateMachine(definition, context: contextAtStart)
            try check(subject, machine)
            for step in path.steps {
                try perform(&subject, step)
                _ = Self.apply(step, to: &machine)
                try check(subject, machine)
            }
        }
    }
}

extension StateMachineModel where Key == [State] {
    /// Explores the machine, telling states apart by their configuration.
    public init(
        _ definition: StateMachineDefinition<State, Event, Context>, context: Context, events: [Event],
        includeTimers: Bool = true, maxStates: Int = 10_000
    ) {
        self.init(
            definition, context: context, events: events, includeTimers: includeTimers, maxStates: maxStates,
            key: \.configuration)
    }
}
