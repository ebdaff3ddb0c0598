import SwiftDiagnostics
import SwiftSyntax

/// An error `@StateMachineSwitch` reports at the part of the definition it cannot compile.
struct SwitchDiagnostic: DiagnosticMessage, Error {
    let message: String
    let node: Syntax

    init(_ message: String, at node: some SyntaxProtocol) {
        self.message = message
        self.node = Syntax(node)
    }

    var diagnosticID: MessageID { MessageID(domain: "StateMachineSwitch", id: "unsupported") }
    var severity: DiagnosticSeverity { .error }

    var diagnostic: Diagnostic { Diagnostic(node: node, message: self) }

    /// A part the generated `switch` does not have: the interpreter runs it.
    static func unsupported(_ part: String, at node: some SyntaxProtocol) -> SwitchDiagnostic {
        SwitchDiagnostic(
            "@StateMachineSwitch does not compile \(part); run this definition with StateMachine or "
                + "StateMachineRuntime instead", at: node)
    }
}
