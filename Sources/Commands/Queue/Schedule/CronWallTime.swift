/// A minute of wall-clock time, with no time zone: the calendar arithmetic a cron expression
/// needs, in integers (proleptic Gregorian calendar; days counted from 1970-01-01).
struct CronWallTime: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01.
    var day: Int64
    /// Minutes since midnight, 0–1439.
    var minute: Int

    /// The wall time `seconds` after 1970-01-01 00:00, rounded down to the minute.
    init(secondsSince1970 seconds: Int64) {
        let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
        day = rest < 0 ? days - 1 : days
        minute = Int((rest < 0 ? rest + 86_400 : rest) / 60)
    }

    init(day: Int64, minute: Int) {
        self.day = day
        self.minute = minute
    }

    /// The seconds from 1970-01-01 00:00 to this wall time.
    var secondsSince1970: Int64 { day * 86_400 + Int64(minute) * 60 }

    /// The next minute.
    var advanced: CronWallTime {
        minute == 1_439 ? CronWallTime(day: day + 1, minute: 0) : CronWallTime(day: day, minute: minute + 1)
    }

    /// The year, month (1–12) and day of the month (1–31) of ``day``.
    var date: (year: Int64, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// The day of the week of ``day``, Sunday as 0.
    var weekday: Int {
        let remainder = (day + 4) % 7  // 1970-01-01 was a Thursday
        return Int(remainder < 0 ? remainder + 7 : remainder)
    }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.day, lhs.minute) < (rhs.day, rhs.minute) }
}
