import Commands
import Foundation
import HTTPTypes

/// One workflow run as an operator reads it: its state, input, output or error, each position
/// of its code (steps with their outputs and errors, sleeps and when they end, waits for a
/// message, children started), the rollback with each compensation it ran, the children with
/// their status, the messages waiting; and cancel.
enum WorkflowPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        guard let key = request["key"] else {
            throw ConsolePageError(status: .badRequest, message: "key: give the run's key (workflow?key=…)")
        }
        let details: WorkflowRunDetails
        do {
            guard let found = try await console.journal.workflowRun(key) else {
                throw ConsolePageError(status: .notFound, message: "No record has the key '\(key)'.")
            }
            details = found
        } catch let error as WorkflowError {
            throw ConsolePageError(status: .badRequest, message: "\(error)")
        }
        let record = details.record
        let now = request.now
        var html = HTML()
        if let message = request["message"] { html.element("p", message, attributes: "class=\"notice\" id=\"notice\"") }
        if !console.options.readOnly && record.status == .pending && details.cancellation == nil {
            ConsoleForms.form(.cancelWorkflow, fields: [("key", key)], csrf: console.csrfToken, into: &html) { html in
                html.raw("<input name=\"reason\" placeholder=\"reason\" aria-label=\"reason\">")
            }
        }

        html.raw("<table id=\"run\"><tbody>")
        ConsoleForms.row("Key", record.id, into: &html, id: "key")
        ConsoleForms.row("Workflow", details.workflow, into: &html, id: "workflow")
        ConsoleForms.row("State", details.state, into: &html, id: "state")
        if let parent = details.parent {
            html.raw("<tr><th>Parent</th><td>")
            html.link(parent, to: ConsoleFormat.workflowHref(parent))
            html.raw("</td></tr>")
        }
        ConsoleForms.row("Owner", record.owner ?? "—", into: &html)
        ConsoleForms.row("Attempts (fencing token)", "\(record.attempts)", into: &html)
        ConsoleForms.row("Input", ConsoleFormat.output(details.input) ?? "—", into: &html, id: "input")
        if let reason = details.cancellation { ConsoleForms.row("Cancelled", reason, into: &html, id: "cancelled") }
        if let reason = record.failureReason {
            ConsoleForms.row("Error", reason, into: &html, id: "error", class: "error")
        }
        if let output = ConsoleFormat.output(record.output) {
            ConsoleForms.row("Output", output, into: &html, id: "output")
        }
        ConsoleForms.row("Started", ConsoleFormat.time(record.createdAt, now: now), into: &html)
        ConsoleForms.row("Updated", ConsoleFormat.time(record.updatedAt, now: now), into: &html)
        html.raw("</tbody></table><p>")
        html.link("The run's record and attempts", to: ConsoleFormat.recordHref(record.id))
        html.raw("</p>")

        html.element("h2", "Positions")
        html.raw("<table id=\"positions\"><thead><tr><th class=\"number\">#</th><th>Kind</th><th>Name</th>")
        html.raw("<th>Status</th><th>Result</th><th>Written</th></tr></thead><tbody>")
        for position in details.positions { row(position, now: now, into: &html) }
        if details.positions.isEmpty {
            html.raw("<tr><td colspan=\"6\" class=\"muted\">Nothing recorded yet.</td></tr>")
        }
        html.raw("</tbody></table>")

        if let cause = details.rollbackCause {
            html.element("h2", "Rollback")
            html.element("p", "Rolled back because: \(cause)", attributes: "class=\"error\" id=\"rollback\"")
            html.raw("<table id=\"compensations\"><thead><tr><th class=\"number\">#</th><th>Step</th><th>Status</th>")
            html.raw("<th>Error</th><th>Written</th></tr></thead><tbody>")
            for compensation in details.compensations {
                let record = compensation.record
                html.raw("<tr data-status=\"\(record.status.rawValue)\">")
                html.element("td", "\(compensation.position)", attributes: "class=\"number\"")
                html.element("td", compensation.name)
                html.raw("<td>")
                ConsoleFormat.status(record.status, into: &html)
                html.raw("</td>")
                html.element(
                    "td", record.failureReason ?? "—", attributes: record.failureReason == nil ? "" : "class=\"error\"")
                html.element("td", ConsoleFormat.time(record.updatedAt, now: now))
                html.raw("</tr>")
            }
            if details.compensations.isEmpty {
                html.raw("<tr><td colspan=\"5\" class=\"muted\">No compensation ran yet.</td></tr>")
            }
            html.raw("</tbody></table>")
        }
        if !details.children.isEmpty {
            html.element("h2", "Children")
            html.raw("<ul id=\"children\">")
            for child in details.children {
                html.raw("<li>")
                html.link(child.id, to: ConsoleFormat.workflowHref(child.id))
                html.text(" ")
                ConsoleFormat.status(child.status, into: &html)
                html.raw("</li>")
            }
            html.raw("</ul>")
        }
        if !details.messagesWaiting.isEmpty {
            html.element("h2", "Messages waiting")
            RecordsPage.table(details.messagesWaiting, now: now, into: &html, id: "messages")
        }
        return ConsolePage(title: "Workflow run \(record.id)", body: html)
    }

    private static func row(_ position: WorkflowRunPosition, now: Date, into html: inout HTML) {
        let step = position.record
        html.raw("<tr data-kind=\"\(position.kind.rawValue)\" data-status=\"\(step.status.rawValue)\">")
        html.element("td", "\(position.position)", attributes: "class=\"number\"")
        html.element("td", position.kind.rawValue)
        html.raw("<td>")
        if position.kind == .start {
            html.link(position.name, to: ConsoleFormat.workflowHref(position.name))
        } else {
            html.text(position.name)
        }
        html.raw("</td><td>")
        ConsoleFormat.status(step.status, into: &html)
        html.raw("</td><td>")
        if let wakesAt = position.wakesAt {
            html.text("ends \(ConsoleFormat.time(wakesAt, now: now))")
        } else if let reason = step.failureReason {
            html.element("pre", reason, attributes: "class=\"error\"")
        } else if let output = ConsoleFormat.output(step.output) {
            html.element("pre", output)
        }
        html.raw("</td>")
        html.element("td", ConsoleFormat.time(step.createdAt, now: now))
        html.raw("</tr>")
    }
}
