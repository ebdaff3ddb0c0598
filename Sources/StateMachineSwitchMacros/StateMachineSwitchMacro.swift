import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@StateMachineSwitch` on a type with `static let definition = StateMachineDefinition<…>(…) { … }`:
/// adds a machine compiled from that definition into a `switch` (see the StateMachineSwitch module).
struct StateMachineSwitchMacro: MemberMacro, ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(SwitchDiagnostic("@StateMachineSwitch applies to a struct", at: node).diagnostic)
            return []
        }
        guard let call = definitionCall(in: declaration) else {
            context.diagnose(
                SwitchDiagnostic(
                    "@StateMachineSwitch compiles the type's `static let definition = "
                        + "StateMachineDefinition<State, Event, Context>(initial: …) { … }`, which it does not find",
                    at: node
                ).diagnostic)
            return []
        }
        let model: ChartModel
        do {
            model = try DefinitionReader.read(call)
        } catch {
            context.diagnose(error.diagnostic)
            return []
        }
        let writer: SwitchWriter
        do {
            writer = try SwitchWriter(model: model, access: access(of: declaration))
        } catch {
            context.diagnose(SwitchDiagnostic(error.message, at: call).diagnostic)
            return []
        }
        return writer.members.map { DeclSyntax(stringLiteral: $0) }
    }

    static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self), definitionCall(in: declaration) != nil else { return [] }
        let conformance: DeclSyntax = "extension \(type.trimmed): SwitchedStateMachine {}"
        return conformance.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
    }

    /// The initializer of `static let definition`.
    static func definitionCall(in declaration: some DeclGroupSyntax) -> FunctionCallExprSyntax? {
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { continue }
            for binding in variable.bindings
            where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "definition" {
                return binding.initializer?.value.as(FunctionCallExprSyntax.self)
            }
        }
        return nil
    }

    /// The access the members get: the type's own when it is public or package.
    static func access(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}
