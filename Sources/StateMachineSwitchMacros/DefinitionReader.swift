import StatechartSemantics
import SwiftSyntax

/// Reads `StateMachineDefinition<State, Event, Context>(initial: …) { In(…) { … } … }` into a
/// ``ChartModel``, or names the first part it cannot compile.
struct DefinitionReader {
    private(set) var model = ChartModel()

    static func read(_ call: FunctionCallExprSyntax) throws(SwitchDiagnostic) -> ChartModel {
        var reader = DefinitionReader()
        try reader.readDefinition(call)
        try reader.resolve(at: call)
        guard reader.model.nodes.count <= StateSet.capacity else {
            throw SwitchDiagnostic(
                "the definition has more than \(StateSet.capacity) states; run it with StateMachine instead", at: call)
        }
        reader.model.shape = reader.model.makeShape()
        return reader.model
    }

    private mutating func readDefinition(_ call: FunctionCallExprSyntax) throws(SwitchDiagnostic) {
        guard let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self),
            Self.name(of: specialized.expression) == "StateMachineDefinition",
            specialized.genericArgumentClause.arguments.count == 3
        else {
            throw SwitchDiagnostic(
                "write the definition as StateMachineDefinition<State, Event, Context>(initial: …) { … }, "
                    + "its three types spelled out", at: call.calledExpression)
        }
        let types = specialized.genericArgumentClause.arguments.map { $0.argument.trimmedDescription }
        (model.stateType, model.eventType, model.contextType) = (types[0], types[1], types[2])
        guard let initial = call.arguments.first(where: { $0.label?.text == "initial" }) else {
            throw SwitchDiagnostic("the definition needs its initial state: initial: .someState", at: call)
        }
        model.initialName = Self.caseName(initial.expression)
        guard let body = try Self.builderBody(of: call, label: "states") else {
            throw SwitchDiagnostic("the definition has no states", at: call)
        }
        for item in body {
            try readState(item, parent: nil)
        }
    }

    /// The statements of the builder closure: the trailing closure, or the argument `label`.
    private static func builderBody(
        of call: FunctionCallExprSyntax, label: String
    ) throws(SwitchDiagnostic) -> CodeBlockItemListSyntax? {
        if let closure = call.trailingClosure { return closure.statements }
        if let argument = call.arguments.first(where: { $0.label?.text == label }) {
            guard let closure = argument.expression.as(ClosureExprSyntax.self) else {
                throw SwitchDiagnostic("write the states in place, as a closure", at: argument)
            }
            return closure.statements
        }
        return nil
    }

    private mutating func readState(_ item: CodeBlockItemSyntax, parent: Int?) throws(SwitchDiagnostic) {
        guard let call = Self.call(item) else {
            throw SwitchDiagnostic(
                "@StateMachineSwitch reads the definition as written: only In, Parallel, On, Refuse, Entry "
                    + "and Exit calls, not other statements (if, for, variables)", at: item)
        }
        let name = Self.name(of: call.calledExpression)
        guard name == "In" || name == "Parallel" else {
            if parent == nil {
                throw SwitchDiagnostic("the top level of a definition holds states: In(…) or Parallel(…)", at: call)
            }
            try readElement(call, named: name, in: parent ?? 0)
            return
        }
        guard let first = call.arguments.first, first.label == nil else {
            throw SwitchDiagnostic("\(name) needs its state first", at: call)
        }
        var node = ChartModel.Node(name: Self.caseName(first.expression), parent: parent)
        node.isParallel = name == "Parallel"
        for argument in call.arguments.dropFirst() {
            switch argument.label?.text {
            case "final":
                guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                    throw SwitchDiagnostic("final: takes a literal true or false", at: argument)
                }
                node.isFinal = literal.literal.tokenKind == .keyword(.true)
            case "initial":
                node.initialName = Self.caseName(argument.expression)
            default:
                if argument.expression.is(ClosureExprSyntax.self) { continue }
                throw SwitchDiagnostic("\(name)(…) has no argument \(argument.trimmedDescription)", at: argument)
            }
        }
        if model.index(of: node.name) != nil {
            throw SwitchDiagnostic("\(node.name) is declared twice", at: first)
        }
        let index = model.nodes.count
        model.nodes.append(node)
        if let parent { model.nodes[parent].children.append(index) }
        let body: CodeBlockItemListSyntax?
        if let closure = call.trailingClosure {
            body = closure.statements
        } else {
            body = call.arguments.last?.expression.as(ClosureExprSyntax.self)?.statements
        }
        for item in body ?? [] {
            try readState(item, parent: index)
        }
    }

    private mutating func readElement(
        _ call: FunctionCallExprSyntax, named name: String, in state: Int
    ) throws(SwitchDiagnostic) {
        switch name {
        case "On": try readOn(call, in: state)
        case "Refuse": try readRefuse(call, in: state)
        case "Entry": model.nodes[state].entries.append(try Self.onlyClosure(of: call, named: name))
        case "Exit": model.nodes[state].exits.append(try Self.onlyClosure(of: call, named: name))
        case "After": throw SwitchDiagnostic.unsupported("timed transitions (After): it has no clock", at: call)
        case "Always": throw SwitchDiagnostic.unsupported("eventless transitions (Always)", at: call)
        case "OnDone": throw SwitchDiagnostic.unsupported("done transitions (OnDone)", at: call)
        case "History": throw SwitchDiagnostic.unsupported("history states (History)", at: call)
        case "Effect": throw SwitchDiagnostic.unsupported("effects (Effect): they need a runtime", at: call)
        default:
            throw SwitchDiagnostic(
                "@StateMachineSwitch does not know \(name)(…): a state holds In, Parallel, On, Refuse, Entry and Exit",
                at: call)
        }
    }

    private mutating func readOn(_ call: FunctionCallExprSyntax, in state: Int) throws(SwitchDiagnostic) {
        guard let first = call.arguments.first, first.label == nil else {
            throw SwitchDiagnostic("On needs its event first", at: call)
        }
        var target: String?
        var guardPart: ChartModel.Guard?
        var keepsSource = false
        var action: ClosureCode?
        var named: [ClosureCode] = []
        for argument in call.arguments.dropFirst() {
            switch argument.label?.text {
            case "to": target = Self.caseName(argument.expression)
            case "when": guardPart = try Self.readGuard(argument.expression)
            case "internal":
                guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                    throw SwitchDiagnostic("internal: takes a literal true or false", at: argument)
                }
                keepsSource = literal.literal.tokenKind == .keyword(.true)
            case "actions":
                guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                    throw SwitchDiagnostic("write the actions in place, as [Action(…) { … }, …]", at: argument)
                }
                for element in array.elements {
                    named.append(try Self.readAction(element.expression))
                }
            case nil:
                guard let closure = argument.expression.as(ClosureExprSyntax.self) else {
                    throw SwitchDiagnostic("write the action in place, as a closure", at: argument)
                }
                action = ClosureCode(closure)
            default:
                throw SwitchDiagnostic("On(…) has no argument \(argument.trimmedDescription)", at: argument)
            }
        }
        if let closure = call.trailingClosure { action = ClosureCode(closure) }
        if !call.additionalTrailingClosures.isEmpty {
            throw SwitchDiagnostic("On(…) takes one action closure", at: call)
        }
        model.nodes[state].rules.append(model.rules.count)
        model.rules.append(
            ChartModel.Rule(
                source: state, event: Self.caseName(first.expression), targetName: target, target: nil,
                guard: guardPart, action: action, namedActions: named, keepsSource: keepsSource, rejection: nil))
    }

    private mutating func readRefuse(_ call: FunctionCallExprSyntax, in state: Int) throws(SwitchDiagnostic) {
        let arguments = Array(call.arguments)
        guard arguments.count >= 2, arguments[0].label == nil, arguments[1].label == nil else {
            throw SwitchDiagnostic("Refuse needs its event and its reason: Refuse(.event, \"why\")", at: call)
        }
        var guardPart: ChartModel.Guard?
        for argument in arguments.dropFirst(2) {
            guard argument.label?.text == "when" else {
                throw SwitchDiagnostic("Refuse(…) has no argument \(argument.trimmedDescription)", at: argument)
            }
            guardPart = try Self.readGuard(argument.expression)
        }
        model.nodes[state].rules.append(model.rules.count)
        model.rules.append(
            ChartModel.Rule(
                source: state, event: Self.caseName(arguments[0].expression), targetName: nil, target: nil,
                guard: guardPart, action: nil, namedActions: [], keepsSource: false,
                rejection: arguments[1].expression.trimmedDescription))
    }

    /// `Guard("name") { … }` or `Guard("name", { … })`.
    private static func readGuard(_ expression: ExprSyntax) throws(SwitchDiagnostic) -> ChartModel.Guard {
        guard let call = expression.as(FunctionCallExprSyntax.self), name(of: call.calledExpression) == "Guard",
            let label = call.arguments.first, label.label == nil
        else {
            throw SwitchDiagnostic("write the guard in place, as Guard(\"name\") { … }", at: expression)
        }
        let closure =
            call.trailingClosure ?? call.arguments.dropFirst().first?.expression.as(ClosureExprSyntax.self)
        guard let closure else { throw SwitchDiagnostic("Guard(…) needs its condition as a closure", at: call) }
        return ChartModel.Guard(name: label.expression.trimmedDescription, body: ClosureCode(closure))
    }

    /// `Action("name") { … }` or `Action { … }`; not `.raise`.
    private static func readAction(_ expression: ExprSyntax) throws(SwitchDiagnostic) -> ClosureCode {
        if let member = expression.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "raise"
        {
            throw SwitchDiagnostic.unsupported("raised events (.raise)", at: expression)
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), name(of: call.calledExpression) == "Action" else {
            throw SwitchDiagnostic("write the action in place, as Action(\"name\") { … }", at: expression)
        }
        return try onlyClosure(of: call, named: "Action")
    }

    /// The one closure of `Entry`, `Exit` or `Action`, after an optional name.
    private static func onlyClosure(
        of call: FunctionCallExprSyntax, named name: String
    ) throws(SwitchDiagnostic) -> ClosureCode {
        if let closure = call.trailingClosure { return ClosureCode(closure) }
        if let closure = call.arguments.last?.expression.as(ClosureExprSyntax.self) { return ClosureCode(closure) }
        throw SwitchDiagnostic("write \(name)'s action in place, as a closure", at: call)
    }

    /// Targets, initial states and the definition's initial state, from names to indices.
    private mutating func resolve(at call: FunctionCallExprSyntax) throws(SwitchDiagnostic) {
        for index in model.rules.indices {
            guard let name = model.rules[index].targetName else { continue }
            guard let target = model.index(of: name) else {
                throw SwitchDiagnostic("\(name) is a target but no In(\(name)) declares it", at: call)
            }
            model.rules[index].target = target
        }
        for index in model.nodes.indices where model.nodes[index].kind == .compound {
            guard let name = model.nodes[index].initialName else {
                model.nodes[index].initial = model.nodes[index].children.first
                continue
            }
            guard let initial = model.index(of: name), model.nodes[initial].parent == index else {
                throw SwitchDiagnostic(
                    "\(name), the initial state of \(model.nodes[index].name), is not one of its children", at: call)
            }
            model.nodes[index].initial = initial
        }
        // `.pay` (every payload) and `.pay(5)` side by side would be two `case`s, and the first
        // would take both: the interpreter tries their rules in the order written instead.
        let events = Set(model.rules.map(\.event))
        for event in events.sorted() {
            guard let open = event.firstIndex(of: "("), events.contains(String(event[..<open])) else { continue }
            throw SwitchDiagnostic(
                "\(event) and \(event[..<open]) name the same case, one with its payload; "
                    + "write one of them, or run this definition with StateMachine", at: call)
        }
        guard let initial = model.index(of: model.initialName) else {
            throw SwitchDiagnostic("the initial state \(model.initialName) is not declared", at: call)
        }
        model.initial = initial
    }

    // MARK: - Syntax helpers

    static func call(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        if case .expr(let expression) = item.item { return expression.as(FunctionCallExprSyntax.self) }
        return nil
    }

    /// The called name: `In`, `StateMachines.In`, `In<…>` all read `In`.
    static func name(of expression: ExprSyntax) -> String {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) {
            return name(of: specialized.expression)
        }
        return expression.trimmedDescription
    }

    /// A state or event as written, with a leading type name dropped: `VehicleState.moving` and
    /// `.moving` both read `.moving`.
    static func caseName(_ expression: ExprSyntax) -> String {
        if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil,
            member.base?.is(DeclReferenceExprSyntax.self) == true
        {
            return "." + member.declName.baseName.text
        }
        return expression.trimmedDescription
    }
}
