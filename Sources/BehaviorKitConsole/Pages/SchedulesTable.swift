import Commands
import Foundation

/// The schedules, as the overview shows them: name, cron expression, time zone, queue, and
/// next run (relative, with its instant as the cell's title).
enum SchedulesTable {
    /// Appends a heading and the table of `journal`'s schedules to `html`.
    static func render(_ journal: any CommandJournalManagement, now: Date, into html: inout HTML) async throws {
        let schedules = try await journal.schedules()
        html.element("h2", "Schedules")
        html.raw("<table id=\"schedules\"><thead><tr>")
        for column in ["Schedule", "Cron", "Time zone", "Queue", "Next run"] { html.element("th", column) }
        html.raw("</tr></thead><tbody>")
        for kept in schedules {
            let schedule = kept.schedule
            html.raw("<tr data-schedule=\"\(HTML.escape(schedule.name))\">")
            html.element("td", schedule.name)
            html.element("td", schedule.cron.expression, attributes: "class=\"cron\"")
            html.element("td", schedule.timeZone.identifier)
            html.element("td", schedule.queue)
            let stamp = kept.nextTick.map(ConsoleFormat.stamp) ?? "never"
            html.element(
                "td", ConsoleFormat.time(kept.nextTick, now: now), attributes: "title=\"\(HTML.escape(stamp))\"")
            html.raw("</tr>")
        }
        if schedules.isEmpty { html.raw("<tr><td colspan=\"5\" class=\"muted\">No schedule.</td></tr>") }
        html.raw("</tbody></table>")
    }
}
