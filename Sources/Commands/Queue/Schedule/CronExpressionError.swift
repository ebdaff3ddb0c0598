/// Why a text is not a ``CronExpression``: each case names the part that is wrong and quotes it.
public enum CronExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The expression has `count` fields, not five (and is no `@` macro).
    case fieldCount(expression: String, count: Int)
    /// A macro other than `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`
    /// and `@hourly` (`@reboot` has no next time).
    case unknownMacro(String)
    /// `field` holds `text`, which it cannot read, for `reason`.
    case invalidField(CronField, text: String, reason: String)

    /// The error, as a sentence that quotes the text.
    public var description: String {
        switch self {
        case .fieldCount(let expression, let count):
            "the cron expression \"\(expression)\" has \(count) fields, not 5 (minute hour day-of-month month day-of-week)"
        case .unknownMacro(let macro): "the cron macro \"\(macro)\" is unknown"
        case .invalidField(let field, let text, let reason):
            "the \(field.rawValue) field \"\(text)\" of the cron expression is invalid: \(reason)"
        }
    }
}
