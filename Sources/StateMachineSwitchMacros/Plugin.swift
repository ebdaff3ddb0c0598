import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that serves `@StateMachineSwitch`.
@main
struct StateMachineSwitchPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [StateMachineSwitchMacro.self]
}
