/// The pieces every page shares: an action's form and a labelled row of a details table.
enum ConsoleForms {
    /// A `POST` form for `action`, carrying the CSRF token and `fields` (hidden), the inputs
    /// `extra` writes, and its button (red for what cannot be undone).
    static func form(
        _ action: ConsoleAction, fields: [(String, String)], csrf: String, into html: inout HTML,
        extra: (inout HTML) -> Void = { _ in }
    ) {
        let id = fields.count == 1 && action.target == .queue ? "\(action.rawValue)-\(fields[0].1)" : action.rawValue
        html.raw("<form class=\"action\" method=\"post\" action=\"\(action.rawValue)\" id=\"")
        html.text(id)
        html.raw("-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">")
        for (name, value) in fields {
            html.raw("<input type=\"hidden\" name=\"\(name)\" value=\"")
            html.text(value)
            html.raw("\">")
        }
        extra(&html)
        let style = action.isDestructive ? " class=\"danger\"" : ""
        html.raw("<button type=\"submit\" id=\"")
        html.text(id)
        html.raw("\"\(style)>\(action.label)</button></form>")
    }

    /// A row of a details table: `label`, then `value` (escaped).
    static func row(
        _ label: String, _ value: String, into html: inout HTML, id: String? = nil, class: String? = nil
    ) {
        let attributes = [id.map { "id=\"\($0)\"" }, `class`.map { "class=\"\($0)\"" }].compactMap(\.self)
        html.raw("<tr>")
        html.element("th", label)
        html.element("td", value, attributes: attributes.joined(separator: " "))
        html.raw("</tr>")
    }
}
