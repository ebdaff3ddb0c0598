import Commands
import Foundation

/// The workers holding records: each one's lease and what it holds.
enum WorkersPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        let workers = try await console.journal.workers()
        var html = HTML()
        table(workers, now: request.now, holdsShown: 100, into: &html)
        return ConsolePage(title: "Workers", body: html)
    }

    /// A table of `workers`, with up to `holdsShown` of the keys each holds.
    static func table(_ workers: [CommandJournalWorker], now: Date, holdsShown: Int, into html: inout HTML) {
        html.raw("<table id=\"workers\"><thead><tr><th>Owner</th><th>State</th><th class=\"number\">Holds</th>")
        html.raw("<th>Lease until</th><th>Earliest lease expiry</th><th>Records</th></tr></thead><tbody>")
        for worker in workers {
            html.raw("<tr><td>")
            html.link(
                worker.owner, to: "records?" + QueryString.build([("status", "pending"), ("owner", worker.owner)]))
            html.raw("</td>")
            html.element("td", worker.isLive(at: now) ? "live" : "lease expired")
            html.element("td", "\(worker.holds.count)", attributes: "class=\"number\"")
            html.element("td", ConsoleFormat.time(worker.leaseExpiresAt, now: now))
            html.element("td", ConsoleFormat.time(worker.earliestLeaseExpiry, now: now))
            html.raw("<td>")
            for (index, key) in worker.holds.prefix(holdsShown).enumerated() {
                if index > 0 { html.raw(", ") }
                html.link(key, to: ConsoleFormat.recordHref(key))
            }
            if worker.holds.count > holdsShown { html.text(" and \(worker.holds.count - holdsShown) more") }
            html.raw("</td></tr>")
        }
        if workers.isEmpty { html.raw("<tr><td colspan=\"6\" class=\"muted\">No worker holds a record.</td></tr>") }
        html.raw("</tbody></table>")
    }
}
