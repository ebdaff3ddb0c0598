import SwiftSyntax

/// A closure literal of the definition, kept as written, and how many parameters it takes.
struct ClosureCode {
    let text: String
    let arity: Int

    init(_ closure: ClosureExprSyntax) {
        text = closure.trimmedDescription
        arity = Self.arity(of: closure)
    }

    /// The parameters a closure declares, or else the highest `$n` its own body uses (not a
    /// nested closure's), plus one.
    static func arity(of closure: ClosureExprSyntax) -> Int {
        if let clause = closure.signature?.parameterClause {
            switch clause {
            case .simpleInput(let names): return names.count
            case .parameterClause(let parameters): return parameters.parameters.count
            }
        }
        let finder = ShorthandFinder(viewMode: .sourceAccurate)
        finder.walk(closure.statements)
        return finder.highest + 1
    }

    /// The closure applied in place, with its type written out so that the compiler inlines it:
    /// `({ … } as (inout Context) -> Void)(&context)`.
    func applied(types: [String], result: String, arguments: [String]) -> String {
        let used = Array(types.prefix(arity))
        let passed = Array(arguments.prefix(arity))
        return "(\(text) as (\(used.joined(separator: ", "))) -> \(result))(\(passed.joined(separator: ", ")))"
    }
}

/// Finds the highest `$n` in a closure body, not looking into nested closures.
private final class ShorthandFinder: SyntaxVisitor {
    var highest = -1

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if case .dollarIdentifier(let name) = token.tokenKind, let number = Int(name.dropFirst()) {
            highest = max(highest, number)
        }
        return .visitChildren
    }
}
