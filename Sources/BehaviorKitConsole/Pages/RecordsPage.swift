import Commands
import Foundation
import HTTPTypes

/// The records that pass the filters in the query (status, queue, kind, key prefix, owner, time
/// range), a page at a time, with the cursor of the next page.
enum RecordsPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        let filter = try filter(request)
        let cursor = try cursor(request)
        let page = try await console.journal.records(matching: filter, after: cursor, limit: console.options.pageSize)
        var html = HTML()
        if let message = request["message"] { html.element("p", message, attributes: "class=\"notice\" id=\"notice\"") }
        form(request, into: &html)
        if !console.options.readOnly { bulkActions(filter, request, csrf: console.csrfToken, into: &html) }
        table(page.records, now: request.now, into: &html, id: "records")
        let fields = filterFields.map { ($0, request[$0]) }
        pager("records", fields, from: cursor, next: page.nextCursor, into: &html)
        return ConsolePage(title: "Records", body: html)
    }

    /// The links to the first page (when this is not it) and to the next one (when there is one)
    /// of `path` with the query `fields`.
    static func pager(
        _ path: String, _ fields: [(String, String?)], from cursor: Int64?, next: Int64?, into html: inout HTML
    ) {
        html.raw("<div class=\"pager\">")
        if cursor != nil { html.link("First page", to: path + "?" + QueryString.build(fields)) }
        if let next {
            html.link(
                "Next page →", to: path + "?" + QueryString.build(fields + [("after", "\(next)")]),
                attributes: "id=\"next\"")
        }
        html.raw("</div>")
    }

    /// A filter form's first field: the status to show (any by default).
    static func statusField(_ request: ConsoleRequest, action: String, into html: inout HTML) {
        html.raw("<form class=\"filters\" method=\"get\" action=\"\(action)\"><label>Status<select name=\"status\">")
        html.raw("<option value=\"\">any</option>")
        for status in CommandJournalStatus.allCases {
            let selected = request["status"] == status.rawValue ? " selected" : ""
            html.raw("<option value=\"\(status.rawValue)\"\(selected)>\(status.rawValue)</option>")
        }
        html.raw("</select></label>")
    }

    /// The query fields of a filter.
    static let filterFields = ["status", "queue", "kind", "prefix", "owner", "since", "before"]

    /// The buttons that retry or cancel every record the filter matches, for a filter narrower
    /// than all records: retry when it can match failed or compensated records, cancel when it
    /// can match pending ones.
    private static func bulkActions(
        _ filter: CommandJournalFilter, _ request: ConsoleRequest, csrf: String, into html: inout HTML
    ) {
        guard filterFields.contains(where: { request[$0] != nil }) else { return }
        let fields = filterFields.compactMap { name in request[name].map { (name, $0) } }
        let statuses = filter.statuses.isEmpty ? Set(CommandJournalStatus.allCases) : filter.statuses
        html.raw("<div class=\"bulk\">")
        if !statuses.isDisjoint(with: [.failed, .compensated]) {
            ConsoleForms.form(.retryMatching, fields: fields, csrf: csrf, into: &html)
        }
        if statuses.contains(.pending) {
            ConsoleForms.form(.cancelMatching, fields: fields, csrf: csrf, into: &html) { html in
                html.raw("<input name=\"reason\" placeholder=\"reason\" aria-label=\"reason\">")
            }
        }
        html.raw("</div>")
    }

    /// The filter the query asks for.
    ///
    /// - Throws: ``ConsolePageError`` (400) for an unknown status or a time that is not ISO 8601.
    static func filter(_ request: ConsoleRequest) throws -> CommandJournalFilter {
        var filter = CommandJournalFilter(
            queue: request["queue"], kind: request["kind"], keyPrefix: request["prefix"], owner: request["owner"])
        if let text = request["status"] { filter.statuses = [try Self.status(text)] }
        filter.updatedSince = try request["since"].map { try date($0, field: "since") }
        filter.updatedBefore = try request["before"].map { try date($0, field: "before") }
        return filter
    }

    /// The status `text` names.
    ///
    /// - Throws: ``ConsolePageError`` (400) naming the statuses there are.
    static func status(_ text: String) throws -> CommandJournalStatus {
        guard let status = CommandJournalStatus(rawValue: text) else {
            throw ConsolePageError(
                status: .badRequest,
                message: "status: '\(text)' is not one of "
                    + CommandJournalStatus.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return status
    }

    /// The page's cursor (`after`), or `nil` for the first page.
    ///
    /// - Throws: ``ConsolePageError`` (400) when it is not a record's sequence.
    static func cursor(_ request: ConsoleRequest) throws -> Int64? {
        try request["after"].map { text in
            guard let cursor = Int64(text) else {
                throw ConsolePageError(status: .badRequest, message: "after: '\(text)' is not a record's sequence")
            }
            return cursor
        }
    }

    private static func date(_ text: String, field: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        throw ConsolePageError(
            status: .badRequest, message: "\(field): '\(text)' is not a time such as 2026-01-31T12:00:00Z")
    }

    private static func form(_ request: ConsoleRequest, into html: inout HTML) {
        statusField(request, action: "records", into: &html)
        for (name, label, hint) in [
            ("queue", "Queue", ""), ("kind", "Kind", ""), ("prefix", "Key prefix", ""), ("owner", "Owner", ""),
            ("since", "Updated since", "2026-01-31T12:00:00Z"), ("before", "Updated before", "2026-01-31T13:00:00Z"),
        ] {
            html.raw("<label>\(label)<input name=\"\(name)\" value=\"")
            html.text(request[name] ?? "")
            html.raw("\" placeholder=\"\(hint)\"></label>")
        }
        html.raw("<button type=\"submit\">Filter</button></form>")
    }

    /// A table of `records`, each linked to its page.
    static func table(_ records: [CommandJournalRecord], now: Date, into html: inout HTML, id: String) {
        html.raw("<table id=\"\(id)\"><thead><tr><th>Key</th><th>Kind</th><th>Status</th><th>Queue</th>")
        html.raw("<th>Owner</th><th class=\"number\">Attempts</th><th>Updated</th></tr></thead><tbody>")
        for record in records {
            html.raw("<tr data-status=\"\(record.status.rawValue)\"><td class=\"key\">")
            html.link(record.id, to: ConsoleFormat.recordHref(record.id))
            html.raw("</td>")
            html.element("td", record.entry.kind)
            html.raw("<td>")
            ConsoleFormat.status(record.status, into: &html)
            html.raw("</td>")
            html.element("td", record.queue ?? "—")
            html.element("td", record.owner ?? "—")
            html.element("td", "\(record.attempts)", attributes: "class=\"number\"")
            html.element("td", ConsoleFormat.time(record.updatedAt, now: now))
            html.raw("</tr>")
        }
        if records.isEmpty { html.raw("<tr><td colspan=\"7\" class=\"muted\">No record.</td></tr>") }
        html.raw("</tbody></table>")
    }
}
