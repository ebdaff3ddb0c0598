import StatechartSemantics

/// A definition as `@StateMachineSwitch` reads it from the source: states in document order
/// (declared depth first, as StateMachines numbers them), each with its rules and actions.
struct ChartModel {
    enum Kind { case atomic, compound, parallel }

    struct Node {
        /// The state as written, `.name` (a leading type name dropped).
        var name: String
        var parent: Int?
        var children: [Int] = []
        var isParallel = false
        var isFinal = false
        /// The child written as `initial:`, resolved after reading; else the first child.
        var initialName: String?
        var initial: Int?
        var entries: [ClosureCode] = []
        var exits: [ClosureCode] = []
        var rules: [Int] = []

        var kind: Kind { isParallel ? .parallel : children.isEmpty ? .atomic : .compound }
    }

    struct Guard {
        /// The name's expression as written (a `String`).
        let name: String
        let body: ClosureCode
    }

    struct Rule {
        let source: Int
        /// The event as written, `.name` (a leading type name dropped).
        let event: String
        let targetName: String?
        var target: Int?
        let `guard`: Guard?
        /// For `On`: the one trailing closure (its event is not optional).
        let action: ClosureCode?
        /// For `On(…, actions: [Action …])`: closures whose event is optional.
        let namedActions: [ClosureCode]
        let keepsSource: Bool
        /// For `Refuse`: the reason's expression as written.
        let rejection: String?
    }

    var stateType = ""
    var eventType = ""
    var contextType = ""
    var initialName = ""
    var initial = 0
    var nodes: [Node] = []
    var rules: [Rule] = []
    /// The structure as the shared algorithm reads it, once the definition is read and resolved.
    var shape = ChartShape(nodes: [])

    /// Whether StateMachines runs the definition as a statechart (any nesting), not a flat machine:
    /// the two differ in small ways the generated code follows (a refusal's guard names).
    var isChart: Bool { nodes.contains { $0.parent != nil || $0.kind != .atomic } }

    func index(of name: String) -> Int? { nodes.firstIndex { $0.name == name } }
}
