/// When a recurring job runs, as a standard five-field cron expression: minute, hour, day of
/// the month, month, day of the week.
///
/// ```swift
/// let weekdays = try CronExpression("30 9 * * MON-FRI")  // 09:30 on weekdays
/// let quarterly = try CronExpression("0 0 1 */3 *")      // midnight on the 1st of every third month
/// let nightly = try CronExpression("@daily")
/// ```
///
/// Each field is `*`, a value, a range `a-b`, or a list of them separated by commas; a step
/// `/n` takes every n-th value of `*`, of a range, or from a value to the field's end (`5/15`
/// is 5, 20, 35, 50). Months and days of the week take names (`JAN`, `mon`); Sunday is 0 or 7.
/// When both the day of the month and the day of the week are restricted (neither begins with
/// `*`), a day matches either one, as in every Unix cron: `0 0 1 * MON` runs on the 1st and
/// on Mondays. The macros `@yearly` (`@annually`), `@monthly`, `@weekly`, `@daily`
/// (`@midnight`) and `@hourly` stand for their usual expressions.
///
/// The times are wall-clock times in a time zone: ``next(after:in:)`` handles the changes of
/// daylight saving time.
public struct CronExpression: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    let minutes: UInt64
    let hours: UInt64
    let daysOfMonth: UInt64
    let months: UInt64
    /// The days of the week, Sunday as 0 (a 7 is folded into it).
    let daysOfWeek: UInt64
    /// Whether the day-of-month field begins with `*` (then only the day of the week chooses days).
    let everyDayOfMonth: Bool
    /// Whether the day-of-week field begins with `*` (then only the day of the month chooses days).
    let everyDayOfWeek: Bool

    /// Reads `expression`.
    ///
    /// - Throws: ``CronExpressionError``, naming the field and its text, when it cannot.
    public init(_ expression: String) throws(CronExpressionError) {
        self.expression = expression
        let trimmed = expression.split(whereSeparator: \.isWhitespace).map(String.init)
        let fields: [String]
        if trimmed.count == 1, let macro = trimmed.first, macro.hasPrefix("@") {
            fields = try Self.expand(macro)
        } else {
            fields = trimmed
        }
        guard fields.count == CronField.allCases.count else {
            throw .fieldCount(expression: expression, count: fields.count)
        }
        minutes = try Self.parse(fields[0], as: .minute)
        hours = try Self.parse(fields[1], as: .hour)
        daysOfMonth = try Self.parse(fields[2], as: .dayOfMonth)
        months = try Self.parse(fields[3], as: .month)
        let weekdays = try Self.parse(fields[4], as: .dayOfWeek)
        daysOfWeek = (weekdays & ~(1 << 7)) | (weekdays >> 7 & 1)
        everyDayOfMonth = fields[2].hasPrefix("*")
        everyDayOfWeek = fields[4].hasPrefix("*")
    }

    /// The expression as written.
    public var description: String { expression }

    /// Whether the expression is equal to `other` as written.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.expression == rhs.expression }

    /// Hashes the expression as written.
    public func hash(into hasher: inout Hasher) { hasher.combine(expression) }

    private static func expand(_ macro: String) throws(CronExpressionError) -> [String] {
        switch macro.lowercased() {
        case "@yearly", "@annually": ["0", "0", "1", "1", "*"]
        case "@monthly": ["0", "0", "1", "*", "*"]
        case "@weekly": ["0", "0", "*", "*", "0"]
        case "@daily", "@midnight": ["0", "0", "*", "*", "*"]
        case "@hourly": ["0", "*", "*", "*", "*"]
        default: throw .unknownMacro(macro)
        }
    }
}
