import ArgumentParser

/// The check of a numeric option: a value outside its range (NaN and the infinities included)
/// is refused before anything runs, with exit code 64 and one line naming the option and the
/// range.
enum OptionRange {
    /// Throws a `ValidationError` unless `range` contains `value`.
    ///
    /// ```swift
    /// try OptionRange.check("--count", count, in: 1...1_000_000)
    /// // --count must be between 1 and 1000000, got 0
    /// ```
    static func check<Value: Comparable>(_ option: String, _ value: Value, in range: ClosedRange<Value>) throws {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
    }

    /// The same for a number with a fraction: whole numbers are written without one ("between
    /// 0 and 1, got 1.5", "got nan").
    static func check(_ option: String, _ value: Double, in range: ClosedRange<Double>) throws {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) must be between \(show(range.lowerBound)) and \(show(range.upperBound)), got \(show(value))")
        }
    }

    private static func show(_ value: Double) -> String {
        guard value.rounded() == value, let whole = Int64(exactly: value) else { return "\(value)" }
        return "\(whole)"
    }
}
