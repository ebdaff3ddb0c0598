/// The chrome around every page: the title, the navigation, the read-only badge.
enum ConsoleLayout {
    static func document(title: String, body: HTML, console: JournalConsole) -> String {
        var page = HTML()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.element("title", "\(title) · BehaviorKit console")
        page.raw("<link rel=\"stylesheet\" href=\"console.css\"></head><body>")
        page.raw("<header><nav><span class=\"brand\">BehaviorKit console</span>")
        page.link("Overview", to: "./")
        page.link("Records", to: "records")
        page.link("Workflows", to: "workflows")
        page.link("Workers", to: "workers")
        if !console.machines.isEmpty { page.link("Machines", to: "machines") }
        if console.options.readOnly { page.raw("<span class=\"badge\" id=\"read-only\">read-only</span>") }
        page.raw("</nav></header><main>")
        page.element("h1", title)
        page.raw(body.output)
        page.raw("</main></body></html>\n")
        return page.output
    }
}
