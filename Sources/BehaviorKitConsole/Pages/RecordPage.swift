import Commands
import Foundation
import HTTPTypes

/// One record in full: its fields, its attempts and steps on a timeline with their outputs and
/// errors, and the actions it allows (cancel, retry).
enum RecordPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        guard let key = request["key"] else {
            throw ConsolePageError(status: .badRequest, message: "key: give the record's key (record?key=…)")
        }
        guard let details = try await console.journal.details(forKey: key) else {
            throw ConsolePageError(status: .notFound, message: "No record has the key '\(key)'.")
        }
        let record = details.record
        let now = request.now
        var html = HTML()
        if let message = request["message"] { html.element("p", message, attributes: "class=\"notice\" id=\"notice\"") }
        if !console.options.readOnly { actions(details, csrf: console.csrfToken, into: &html) }

        html.raw("<table id=\"record\"><tbody>")
        ConsoleForms.row("Key", record.id, into: &html, id: "key")
        html.raw("<tr><th>Status</th><td id=\"status\">")
        ConsoleFormat.status(record.status, into: &html)
        if details.isCancelled { html.text(" (cancelled)") }
        html.raw("</td></tr>")
        ConsoleForms.row("Kind", record.entry.kind, into: &html)
        ConsoleForms.row("Queue", record.queue ?? "— (run by its caller)", into: &html)
        if record.queue != nil { ConsoleForms.row("Priority", "\(record.priority)", into: &html, id: "priority") }
        if let parent = record.entry.parentKey {
            html.raw("<tr><th>Parent</th><td>")
            html.link(parent, to: ConsoleFormat.recordHref(parent))
            html.raw("</td></tr>")
        }
        ConsoleForms.row("Owner", record.owner ?? "—", into: &html)
        ConsoleForms.row("Attempts (fencing token)", "\(record.attempts)", into: &html)
        if let due = details.dueAt { ConsoleForms.row("Due", ConsoleFormat.time(due, now: now), into: &html) }
        if let lease = details.leaseExpiresAt {
            ConsoleForms.row("Lease until", ConsoleFormat.time(lease, now: now), into: &html)
        }
        ConsoleForms.row("Created", ConsoleFormat.time(record.createdAt, now: now), into: &html)
        ConsoleForms.row("Updated", ConsoleFormat.time(record.updatedAt, now: now), into: &html)
        if let reason = record.failureReason {
            ConsoleForms.row("Error", reason, into: &html, id: "error", class: "error")
        }
        if let reason = details.compensationReason { ConsoleForms.row("Compensated because", reason, into: &html) }
        if let output = ConsoleFormat.output(record.output) {
            html.raw("<tr><th>Output</th><td><pre id=\"output\">")
            html.text(output)
            html.raw("</pre></td></tr>")
        }
        html.raw("</tbody></table>")

        html.element("h2", "Timeline")
        html.raw("<ol class=\"timeline\" id=\"timeline\">")
        html.raw("<li>")
        html.text("Created \(ConsoleFormat.time(record.createdAt, now: now))")
        html.raw("</li>")
        for event in timeline(details) { item(event, now: now, into: &html) }
        html.raw("</ol>")
        return ConsolePage(title: "Record \(record.id)", body: html)
    }

    /// An attempt or a step, on the timeline in the order they happened.
    private enum Event {
        case attempt(CommandJournalAttempt)
        case step(CommandJournalRecord)

        var time: Date {
            switch self {
            case .attempt(let attempt): attempt.endedAt ?? .distantFuture
            case .step(let step): step.createdAt
            }
        }
    }

    private static func timeline(_ details: CommandJournalRecordDetails) -> [Event] {
        let events = details.attempts.map(Event.attempt) + details.steps.map(Event.step)
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private static func item(_ event: Event, now: Date, into html: inout HTML) {
        switch event {
        case .attempt(let attempt):
            let state = attempt.error != nil ? "failed" : attempt.endedAt == nil ? "pending" : "done"
            html.raw("<li class=\"\(state) attempt\">")
            var line = "Attempt \(attempt.number)"
            if let owner = attempt.owner { line += " by \(owner)" }
            line += attempt.endedAt.map { ", ended \(ConsoleFormat.time($0, now: now))" } ?? ", under way"
            html.element("strong", line)
            if let error = attempt.error { html.element("pre", error, attributes: "class=\"error\"") }
            html.raw("</li>")
        case .step(let step):
            html.raw("<li class=\"\(step.status.rawValue) step\">")
            html.text("Step ")
            html.link(step.id, to: ConsoleFormat.recordHref(step.id))
            html.text(" (\(step.entry.kind)) ")
            ConsoleFormat.status(step.status, into: &html)
            html.text(" \(ConsoleFormat.time(step.updatedAt, now: now))")
            if let output = ConsoleFormat.output(step.output) { html.element("pre", output) }
            if let reason = step.failureReason { html.element("pre", reason, attributes: "class=\"error\"") }
            html.raw("</li>")
        }
    }

    private static func actions(_ details: CommandJournalRecordDetails, csrf: String, into html: inout HTML) {
        let record = details.record
        guard record.entry.parentKey == nil else { return }
        if record.status == .pending && !details.isCancelled {
            ConsoleForms.form(.cancel, fields: [("key", record.id)], csrf: csrf, into: &html) { html in
                html.raw("<input name=\"reason\" placeholder=\"reason\" aria-label=\"reason\">")
            }
        }
        if record.status == .failed || record.status == .compensated {
            ConsoleForms.form(.retry, fields: [("key", record.id)], csrf: csrf, into: &html)
        }
    }
}
