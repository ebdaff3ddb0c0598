/// A page under construction: text appended through ``text(_:)`` is escaped, so that a key, an
/// output or an error shows as text however it is spelled; markup is the console's own.
struct HTML: Sendable {
    private(set) var output = ""

    /// Appends the console's own markup, unescaped.
    mutating func raw(_ markup: String) {
        output += markup
    }

    /// Appends `value` escaped for an element's text or an attribute's quoted value.
    mutating func text(_ value: String) {
        output += HTML.escape(value)
    }

    /// Appends `<tag attributes>escaped text</tag>`.
    mutating func element(_ tag: String, _ value: String, attributes: String = "") {
        raw("<\(tag)\(attributes.isEmpty ? "" : " " + attributes)>")
        text(value)
        raw("</\(tag)>")
    }

    /// Appends a link to `href` (escaped) showing `label` (escaped).
    mutating func link(_ label: String, to href: String, attributes: String = "") {
        raw("<a href=\"\(HTML.escape(href))\"\(attributes.isEmpty ? "" : " " + attributes)>")
        text(label)
        raw("</a>")
    }

    /// `value` with `&`, `<`, `>`, `"` and `'` replaced by their character references.
    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
