#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The next time a cron expression names, in a time zone, with the changes of daylight saving
/// time handled.
extension CronExpression {
    /// How far ahead ``next(after:in:)`` looks: 10 years, past the longest gap of any
    /// expression that matches at all (29 February on a given weekday needs 8 years around 2100).
    static let horizonDays: Int64 = 3_660

    /// The first time after `date` that the expression names, read as wall-clock time in
    /// `timeZone`; `nil` when it names none in the next ten years (`0 0 30 2 *`).
    ///
    /// ```swift
    /// let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    /// let next = try CronExpression("30 2 * * *").next(after: .now, in: berlin)
    /// ```
    ///
    /// Times are whole minutes; the answer is always later than `date`. Daylight saving time,
    /// as Vixie cron and cronie (the cron of most Linux systems) handle it:
    /// - A wall time skipped when the clocks go forward (02:30 on the night New York moves from
    ///   02:00 to 03:00) fires once, at the first instant after the gap (03:00). Several times in
    ///   the gap fire once together.
    /// - A wall time repeated when the clocks go back (01:30, twice on the night New York moves
    ///   from 02:00 back to 01:00) fires once, at its first occurrence.
    ///
    /// Every time is read as wall-clock time, a `*` field's too: an hourly expression fires at
    /// 01:00 once on the night the clocks go back, and one every minute pauses for the repeated
    /// hour. (Vixie cron runs a job with `*` in its minute or hour field by the elapsed time
    /// instead, so twice in the repeated hour; for fixed times the two agree.)
    public func next(after date: Date, in timeZone: TimeZone) -> Date? {
        let seconds = Int64(clamping: date.timeIntervalSince1970.rounded(.down), default: 0)
        // Far outside any calendar a schedule runs on (about 30,000 years from 1970): no answer.
        guard seconds > -1_000_000_000_000, seconds < 1_000_000_000_000 else { return nil }
        let local = seconds + Int64(timeZone.secondsFromGMT(for: date))
        var from = CronWallTime(secondsSince1970: local).advanced
        let horizon = from.day + Self.horizonDays
        while let wall = firstMatch(from: from, before: horizon) {
            let instant = Self.instant(of: wall, in: timeZone)
            if instant > seconds { return Date(timeIntervalSince1970: Double(instant)) }
            // A repeated wall time whose first occurrence is past: it has fired.
            from = wall.advanced
        }
        return nil
    }

    /// The first wall time from `start` on that the expression matches, before the day `horizon`.
    func firstMatch(from start: CronWallTime, before horizon: Int64) -> CronWallTime? {
        var day = start.day
        var earliest = start.minute
        while day < horizon {
            let (_, month, dayOfMonth) = CronWallTime(day: day, minute: 0).date
            if matches(month: month, dayOfMonth: dayOfMonth, weekday: CronWallTime(day: day, minute: 0).weekday),
                let minute = firstMinute(from: earliest)
            {
                return CronWallTime(day: day, minute: minute)
            }
            day += 1
            earliest = 0
        }
        return nil
    }

    private func matches(month: Int, dayOfMonth: Int, weekday: Int) -> Bool {
        guard months >> UInt64(month) & 1 == 1 else { return false }
        let byMonthDay = daysOfMonth >> UInt64(dayOfMonth) & 1 == 1
        let byWeekday = daysOfWeek >> UInt64(weekday) & 1 == 1
        if everyDayOfMonth || everyDayOfWeek { return byMonthDay && byWeekday }
        return byMonthDay || byWeekday
    }

    /// The first minute of the day, `earliest` or later, the expression matches.
    private func firstMinute(from earliest: Int) -> Int? {
        var minute = earliest
        while minute < 1_440 {
            let (hour, minuteOfHour) = minute.quotientAndRemainder(dividingBy: 60)
            if hours >> UInt64(hour) & 1 == 0 {
                minute = (hour + 1) * 60
            } else if minutes >> UInt64(minuteOfHour) & 1 == 0 {
                minute += 1
            } else {
                return minute
            }
        }
        return nil
    }

    /// The instant (seconds since 1970) of `wall` in `timeZone`: its first occurrence, or for a
    /// wall time the clocks skipped, the first instant after the gap.
    static func instant(of wall: CronWallTime, in timeZone: TimeZone) -> Int64 {
        let local = wall.secondsSince1970
        func offset(_ instant: Int64) -> Int64 {
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
        }
        let before = offset(local - 86_400)
        let after = offset(local + 86_400)
        let occurrences = Set([before, after]).map { local - $0 }.filter { local - offset($0) == $0 }
        if let first = occurrences.min() { return first }
        // In a gap: the offset goes from `before` to `after` between these two instants.
        var low = local - max(before, after)
        var high = local - min(before, after)
        guard low < high, offset(high) != offset(low) else { return local - offset(local) }
        let lowOffset = offset(low)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(middle) == lowOffset { low = middle } else { high = middle }
        }
        return high
    }
}
