import Commands
import Foundation
import Testing

/// Daylight saving time, as Vixie cron and cronie handle a fixed time: a wall time the clocks
/// skip fires once at the first instant after the gap; a wall time they repeat fires once, at
/// its first occurrence. New York: 8 March 2026 02:00 EST → 03:00 EDT, 1 November 2026 02:00
/// EDT → 01:00 EST. Berlin: 29 March 2026 02:00 CET → 03:00 CEST, 25 October 2026 03:00 CEST →
/// 02:00 CET.
struct CronDaylightSavingTests {
    let newYork = TimeZone(identifier: "America/New_York")
    let berlin = TimeZone(identifier: "Europe/Berlin")

    /// The times `cron` names after `start`, in `zone`, `count` of them.
    func ticks(_ cron: String, after start: String, in zone: TimeZone?, count: Int) throws -> [Date] {
        let zone = try #require(zone)
        let expression = try CronExpression(cron)
        var ticks: [Date] = []
        var cursor = try date(start)
        for _ in 0..<count {
            let next = try #require(expression.next(after: cursor, in: zone))
            ticks.append(next)
            cursor = next
        }
        return ticks
    }

    @Test func newYorkSkippedTimeFiresOnceAfterTheGap() throws {
        // 02:30 does not exist on 8 March: it fires at 03:00 EDT (07:00Z), then at 02:30 EDT.
        #expect(
            try ticks("30 2 * * *", after: "2026-03-07T12:00:00Z", in: newYork, count: 3) == [
                date("2026-03-08T07:00:00Z"), date("2026-03-09T06:30:00Z"), date("2026-03-10T06:30:00Z"),
            ])
        // Hourly: 01:00 EST, then the gap and 03:00 fire once together, then 04:00 EDT.
        #expect(
            try ticks("0 * * * *", after: "2026-03-08T05:30:00Z", in: newYork, count: 3) == [
                date("2026-03-08T06:00:00Z"), date("2026-03-08T07:00:00Z"), date("2026-03-08T08:00:00Z"),
            ])
    }

    @Test func newYorkRepeatedTimeFiresOnce() throws {
        // 01:30 happens twice on 1 November: it fires at the first (EDT, 05:30Z) only.
        #expect(
            try ticks("30 1 * * *", after: "2026-10-31T12:00:00Z", in: newYork, count: 2) == [
                date("2026-11-01T05:30:00Z"), date("2026-11-02T06:30:00Z"),
            ])
        // From inside the second 01:00 hour, 01:30 has fired already: the next is the next day's.
        #expect(
            try ticks("30 1 * * *", after: "2026-11-01T06:10:00Z", in: newYork, count: 1) == [
                date("2026-11-02T06:30:00Z")
            ])
        // Hourly: 01:00 fires once (EDT), then 02:00 EST.
        #expect(
            try ticks("0 * * * *", after: "2026-11-01T04:30:00Z", in: newYork, count: 2) == [
                date("2026-11-01T05:00:00Z"), date("2026-11-01T07:00:00Z"),
            ])
    }

    @Test func berlinSkippedTimeFiresOnceAfterTheGap() throws {
        // 02:30 does not exist on 29 March: it fires at 03:00 CEST (01:00Z), then at 02:30 CEST.
        #expect(
            try ticks("30 2 * * *", after: "2026-03-28T12:00:00Z", in: berlin, count: 2) == [
                date("2026-03-29T01:00:00Z"), date("2026-03-30T00:30:00Z"),
            ])
        // Every 15 minutes: 01:45 CET, then 02:00 to 02:45 and 03:00 fire once, at 03:00 CEST, then 03:15.
        #expect(
            try ticks("*/15 * * * *", after: "2026-03-29T00:40:00Z", in: berlin, count: 3) == [
                date("2026-03-29T00:45:00Z"), date("2026-03-29T01:00:00Z"), date("2026-03-29T01:15:00Z"),
            ])
    }

    @Test func berlinRepeatedTimeFiresOnce() throws {
        // 02:30 happens twice on 25 October: it fires at the first (CEST, 00:30Z) only.
        #expect(
            try ticks("30 2 * * *", after: "2026-10-24T12:00:00Z", in: berlin, count: 2) == [
                date("2026-10-25T00:30:00Z"), date("2026-10-26T01:30:00Z"),
            ])
    }

    @Test func aScheduleKeysEachTickByItsInstant() throws {
        let zone = try #require(newYork)
        let schedule = QueueSchedule(
            "nightly", cron: try CronExpression("30 2 * * *"), timeZone: zone, queue: "reports", kind: "report")
        let tick = try #require(schedule.cron.next(after: date("2026-03-07T12:00:00Z"), in: zone))
        #expect(schedule.key(forTick: tick) == "nightly@2026-03-08T07:00:00Z")
    }
}
