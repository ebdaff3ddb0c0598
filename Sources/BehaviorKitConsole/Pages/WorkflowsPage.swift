import Commands
import Foundation

/// The workflow runs, newest first in each page's order of the journal, filtered by status, a
/// page at a time: each with its workflow, status, owner and last change, linked to its page.
enum WorkflowsPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        var filter = CommandJournalFilter()
        if let status = request["status"] {
            filter.statuses = [try RecordsPage.status(status)]
        }
        let cursor = try RecordsPage.cursor(request)
        let page = try await console.journal.workflowRuns(
            matching: filter, after: cursor, limit: console.options.pageSize)
        var html = HTML()
        RecordsPage.statusField(request, action: "workflows", into: &html)
        html.raw("<button type=\"submit\">Filter</button></form>")

        html.raw("<table id=\"workflows\"><thead><tr><th>Key</th><th>Workflow</th><th>Status</th><th>Owner</th>")
        html.raw("<th class=\"number\">Attempts</th><th>Updated</th></tr></thead><tbody>")
        for run in page.records {
            html.raw("<tr data-status=\"\(run.status.rawValue)\"><td class=\"key\">")
            html.link(run.id, to: ConsoleFormat.workflowHref(run.id))
            html.raw("</td>")
            html.element("td", run.workflowName ?? "?")
            html.raw("<td>")
            ConsoleFormat.status(run.status, into: &html)
            html.raw("</td>")
            html.element("td", run.owner ?? "—")
            html.element("td", "\(run.attempts)", attributes: "class=\"number\"")
            html.element("td", ConsoleFormat.time(run.updatedAt, now: request.now))
            html.raw("</tr>")
        }
        if page.records.isEmpty { html.raw("<tr><td colspan=\"6\" class=\"muted\">No workflow run.</td></tr>") }
        html.raw("</tbody></table>")
        RecordsPage.pager(
            "workflows", [("status", request["status"])], from: cursor, next: page.nextCursor, into: &html)
        return ConsolePage(title: "Workflows", body: html)
    }
}
