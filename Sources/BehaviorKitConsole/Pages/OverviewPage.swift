import Commands
import Foundation

/// The overview: queues with their depth by state (pause and resume them), each queue's last
/// hour as a chart, counts by status, schedules with their next run, workers, and what changed
/// in the last minutes.
enum OverviewPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        let journal = console.journal
        let queues = try await journal.queues()
        let paused = try await journal.pausedQueues()
        let rates = Dictionary(grouping: try await journal.rateLimits(), by: \.queue)
        let workers = try await journal.workers()
        var html = HTML()
        if let message = request["message"] { html.element("p", message, attributes: "class=\"notice\" id=\"notice\"") }

        html.raw("<div class=\"cards\" id=\"counts\">")
        let pending = queues.reduce(0) { $0 + $1.depth }
        card("pending", "\(pending)", href: "records?status=pending", into: &html)
        for status in [CommandJournalStatus.done, .failed, .compensated] {
            let page = try await journal.records(
                matching: CommandJournalFilter(statuses: [status]), after: nil, limit: console.options.countLimit)
            let count = page.nextCursor == nil ? "\(page.records.count)" : "≥ \(page.records.count)"
            card(status.rawValue, count, href: "records?status=\(status.rawValue)", into: &html)
        }
        let live = workers.filter { $0.isLive(at: request.now) }.count
        card("workers", "\(live)", href: "workers", into: &html)
        html.raw("</div>")

        html.element("h2", "Queues")
        html.raw("<table id=\"queues\"><thead><tr><th>Queue</th>")
        for column in ["Due", "Delayed", "Running", "Stalled", "Depth"] {
            html.raw("<th class=\"number\">\(column)</th>")
        }
        html.raw("<th>Oldest due</th><th>Rate limit</th><th>State</th></tr></thead><tbody>")
        // A paused or rate-limited queue with nothing pending is listed too: it is there to be
        // resumed, or its limit read.
        let idle = paused.union(rates.keys).subtracting(queues.compactMap(\.name)).sorted().map {
            CommandJournalQueueStatistics(name: $0)
        }
        for queue in queues + idle {
            let name = queue.name ?? "(run by callers)"
            html.raw("<tr data-queue=\"\(HTML.escape(queue.name ?? ""))\"><td>")
            if let queueName = queue.name {
                html.link(name, to: "records?" + QueryString.build([("status", "pending"), ("queue", queueName)]))
            } else {
                html.text(name)
            }
            html.raw("</td>")
            for (column, value) in [
                ("due", queue.due), ("delayed", queue.delayed), ("running", queue.running),
                ("stalled", queue.stalled), ("depth", queue.depth),
            ] {
                html.raw("<td class=\"number\" data-column=\"\(column)\">\(value)</td>")
            }
            html.element("td", ConsoleFormat.time(queue.oldestDue, now: request.now))
            let limits = queue.name.flatMap { rates[$0] } ?? []
            html.element(
                "td",
                limits.isEmpty
                    ? "—"
                    : limits.map { "\($0.limit)\($0.scope == .partition ? " per partition" : "")" }.joined(
                        separator: "; "), attributes: "data-column=\"rate\"")
            state(of: queue.name, paused: paused, console, into: &html)
            html.raw("</tr>")
        }
        if queues.isEmpty && idle.isEmpty {
            html.raw("<tr><td colspan=\"9\" class=\"muted\">No pending work.</td></tr>")
        }
        html.raw("</tbody></table>")

        html.element("h2", "Activity")
        let hour = QueueActivity.minute(of: request.now).addingTimeInterval(-Double((ActivityChart.minutes - 1) * 60))
        ActivityChart.render(try await journal.activity(since: hour), now: request.now, into: &html)

        try await SchedulesTable.render(journal, now: request.now, into: &html)

        html.element("h2", "Workers")
        WorkersPage.table(workers, now: request.now, holdsShown: 3, into: &html)

        let window = console.options.recentWindow
        let since = request.now.addingTimeInterval(-Double(window.components.seconds))
        let recent = try await journal.records(
            matching: CommandJournalFilter(updatedSince: since), after: nil, limit: 20)
        html.element("h2", "Changed in the last \(Int(window.components.seconds / 60)) minutes")
        RecordsPage.table(recent.records, now: request.now, into: &html, id: "recent")
        if recent.nextCursor != nil {
            html.link(
                "All records changed since then",
                to: "records?" + QueryString.build([("since", ConsoleFormat.stamp(since))]))
        }
        return ConsolePage(title: "Overview", body: html)
    }

    /// Whether the queue `name` is paused, and the button that resumes or pauses it.
    private static func state(
        of name: String?, paused: Set<String>, _ console: JournalConsole, into html: inout HTML
    ) {
        html.raw("<td class=\"queue-state\">")
        guard let name else {
            html.raw("</td>")
            return
        }
        let isPaused = paused.contains(name)
        html.element(
            "span", isPaused ? "paused" : "running",
            attributes: "class=\"status status-\(isPaused ? "failed" : "done")\"")
        if !console.options.readOnly {
            ConsoleForms.form(
                isPaused ? .resume : .pause, fields: [("queue", name)], csrf: console.csrfToken, into: &html)
        }
        html.raw("</td>")
    }

    private static func card(_ label: String, _ value: String, href: String, into html: inout HTML) {
        html.raw("<a class=\"card\" id=\"count-\(label)\" href=\"\(href)\"><div class=\"value\">")
        html.text(value)
        html.raw("</div><div class=\"label\">")
        html.text(label)
        html.raw("</div></a>")
    }
}
