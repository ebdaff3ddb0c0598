import DurableMachines
import Foundation
import HTTPTypes

/// The durable machines: each one's instances by state; with `machine` and `state` in the
/// query, the keys in that state, in order of entry.
enum MachinesPage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        var html = HTML()
        if let name = request["machine"], let state = request["state"] {
            let machine = try console.machine(named: name)
            let entries = try await machine.store.keys(
                machine: name, in: state, enteredBefore: nil, after: nil, limit: console.options.pageSize)
            html.raw("<table id=\"keys\"><thead><tr><th>Key</th><th>Entered</th></tr></thead><tbody>")
            for entry in entries {
                html.raw("<tr><td>")
                html.link(entry.key, to: "machine?" + QueryString.build([("machine", name), ("key", entry.key)]))
                html.raw("</td>")
                html.element("td", ConsoleFormat.time(entry.enteredAt, now: request.now))
                html.raw("</tr>")
            }
            if entries.isEmpty { html.raw("<tr><td colspan=\"2\" class=\"muted\">No instance.</td></tr>") }
            html.raw("</tbody></table>")
            if entries.count == console.options.pageSize {
                html.element("p", "The first \(entries.count) keys, oldest entry first.", attributes: "class=\"muted\"")
            }
            return ConsolePage(title: "\(name) in \(state)", body: html)
        }
        for machine in console.machines {
            let counts = try await machine.store.countsByState(machine: machine.name)
            html.element("h2", machine.name)
            html.raw(
                "<table class=\"machine\"><thead><tr><th>State</th><th class=\"number\">Instances</th></tr></thead>")
            html.raw("<tbody>")
            for (state, count) in counts.sorted(by: { $0.key < $1.key }) {
                html.raw("<tr><td>")
                html.link(state, to: "machines?" + QueryString.build([("machine", machine.name), ("state", state)]))
                html.raw("</td>")
                html.element("td", "\(count)", attributes: "class=\"number\"")
                html.raw("</tr>")
            }
            if counts.isEmpty { html.raw("<tr><td colspan=\"2\" class=\"muted\">No instance.</td></tr>") }
            html.raw("</tbody></table>")
            html.raw("<form class=\"filters\" method=\"get\" action=\"machine\">")
            html.raw("<input type=\"hidden\" name=\"machine\" value=\"")
            html.text(machine.name)
            html.raw("\"><label>Key<input name=\"key\"></label><button type=\"submit\">History</button></form>")
        }
        return ConsolePage(title: "Durable machines", body: html)
    }
}

extension JournalConsole {
    /// The registered machine `name`.
    ///
    /// - Throws: ``ConsolePageError`` (404) when no machine has that name.
    func machine(named name: String) throws -> ConsoleMachine {
        guard let machine = machines.first(where: { $0.name == name }) else {
            throw ConsolePageError(status: .notFound, message: "No durable machine is named '\(name)'.")
        }
        return machine
    }
}
