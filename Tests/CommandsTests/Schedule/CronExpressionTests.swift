import Commands
import Foundation
import Testing

/// Reading cron expressions: fields, lists, ranges, steps, names, macros, and the errors that
/// name the field and its text.
struct CronExpressionTests {
    @Test func fieldsListsRangesStepsAndNamesAreRead() throws {
        let utc = TimeZone.gmt
        let start = try date("2026-01-01T00:00:00Z")  // a Thursday
        #expect(try CronExpression("*/15 9-17 * * MON-FRI").next(after: start, in: utc) == date("2026-01-01T09:00:00Z"))
        #expect(try CronExpression("5/20 * * * *").next(after: start, in: utc) == date("2026-01-01T00:05:00Z"))
        #expect(try CronExpression("45 1,3 * * *").next(after: start, in: utc) == date("2026-01-01T01:45:00Z"))
        #expect(try CronExpression("0 0 * feb sun").next(after: start, in: utc) == date("2026-02-01T00:00:00Z"))
        #expect(try CronExpression("0 0 * * 7").next(after: start, in: utc) == date("2026-01-04T00:00:00Z"))
        #expect(try CronExpression("0 0 1 1 *").next(after: start, in: utc) == date("2027-01-01T00:00:00Z"))
        #expect(try CronExpression("0 0 29 2 *").next(after: start, in: utc) == date("2028-02-29T00:00:00Z"))
        #expect(try CronExpression("0 0 30 2 *").next(after: start, in: utc) == nil)
    }

    @Test func macrosStandForTheirExpressions() throws {
        let utc = TimeZone.gmt
        let start = try date("2026-01-01T00:00:00Z")
        #expect(try CronExpression("@hourly").next(after: start, in: utc) == date("2026-01-01T01:00:00Z"))
        #expect(try CronExpression("@daily").next(after: start, in: utc) == date("2026-01-02T00:00:00Z"))
        #expect(try CronExpression("@weekly").next(after: start, in: utc) == date("2026-01-04T00:00:00Z"))
        #expect(try CronExpression("@monthly").next(after: start, in: utc) == date("2026-02-01T00:00:00Z"))
        #expect(try CronExpression("@yearly").next(after: start, in: utc) == date("2027-01-01T00:00:00Z"))
        #expect(try CronExpression("@annually") == CronExpression("@annually"))
    }

    @Test func restrictedDaysOfTheMonthAndWeekMatchEither() throws {
        let utc = TimeZone.gmt
        let start = try date("2026-01-01T00:00:00Z")
        // Both restricted: the 13th or a Friday, whichever comes first (2 January is a Friday).
        #expect(try CronExpression("0 0 13 * FRI").next(after: start, in: utc) == date("2026-01-02T00:00:00Z"))
        // The day of the month begins with `*`: odd days that are Fridays.
        #expect(try CronExpression("0 0 */2 * FRI").next(after: start, in: utc) == date("2026-01-09T00:00:00Z"))
    }

    @Test func badInputIsRefusedNamingTheFieldAndItsText() {
        #expect(throws: CronExpressionError.fieldCount(expression: "* * * *", count: 4)) {
            try CronExpression("* * * *")
        }
        #expect(throws: CronExpressionError.unknownMacro("@reboot")) { try CronExpression("@reboot") }
        for (text, field, fieldText) in [
            ("61 * * * *", CronField.minute, "61"), ("* 24 * * *", .hour, "24"), ("* * 0 * *", .dayOfMonth, "0"),
            ("* * * FOO *", .month, "FOO"), ("* * * * 8", .dayOfWeek, "8"), ("5-1 * * * *", .minute, "5-1"),
            ("*/0 * * * *", .minute, "*/0"), ("1,,2 * * * *", .minute, "1,,2"), ("1/2/3 * * * *", .minute, "1/2/3"),
            ("99999999999999999999 * * * *", .minute, "99999999999999999999"),
        ] {
            do throws(CronExpressionError) {
                _ = try CronExpression(text)
                Issue.record("\"\(text)\" was read")
            } catch {
                guard case .invalidField(let found, let foundText, _) = error else {
                    Issue.record("\"\(text)\" threw \(error)")
                    continue
                }
                #expect(found == field && foundText == fieldText, "\(error)")
                #expect(error.description.contains(fieldText))
            }
        }
    }

    @Test func anExpressionIsStoredAsWritten() throws {
        let expression = try CronExpression("30 9 * * MON-FRI")
        let data = try JSONEncoder().encode(expression)
        #expect(String(decoding: data, as: UTF8.self) == "\"30 9 * * MON-FRI\"")
        #expect(try JSONDecoder().decode(CronExpression.self, from: data) == expression)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CronExpression.self, from: Data("\"x\"".utf8)) }
    }
}

/// The date `text` names (ISO 8601, UTC).
func date(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}
