/// One of the five fields of a ``CronExpression``, in the order they are written.
public enum CronField: String, CaseIterable, Hashable, Sendable {
    /// The minute, 0–59.
    case minute
    /// The hour, 0–23.
    case hour
    /// The day of the month, 1–31.
    case dayOfMonth
    /// The month, 1–12 or `JAN`–`DEC`.
    case month
    /// The day of the week, 0–7 (0 and 7 are Sunday) or `SUN`–`SAT`.
    case dayOfWeek

    /// The smallest value the field takes.
    var lowest: Int {
        switch self {
        case .minute, .hour, .dayOfWeek: 0
        case .dayOfMonth, .month: 1
        }
    }

    /// The largest value the field takes (7 for the day of the week, read as Sunday).
    var highest: Int {
        switch self {
        case .minute: 59
        case .hour: 23
        case .dayOfMonth: 31
        case .month: 12
        case .dayOfWeek: 7
        }
    }

    /// The names the field accepts for its values, upper case, from its lowest value on.
    var names: [String] {
        switch self {
        case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
        case .minute, .hour, .dayOfMonth: []
        }
    }
}
