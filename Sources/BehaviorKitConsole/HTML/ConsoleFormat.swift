import Commands
import Foundation

/// How the pages write times, statuses, outputs and links to a record.
enum ConsoleFormat {
    /// `date` in ISO 8601 (UTC, seconds), and how long ago or ahead of `now` it is.
    static func time(_ date: Date?, now: Date) -> String {
        guard let date else { return "—" }
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        let amount: String =
            switch magnitude {
            case ..<1: "now"
            case ..<120: "\(Int(magnitude)) s"
            case ..<7_200: "\(Int(magnitude / 60)) min"
            case ..<172_800: "\(Int(magnitude / 3_600)) h"
            default: "\(Int(magnitude / 86_400)) d"
            }
        let relative = amount == "now" ? "now" : seconds < 0 ? "\(amount) ago" : "in \(amount)"
        return "\(stamp(date)) (\(relative))"
    }

    /// `date` as `2026-11-25T15:03:01Z`.
    static func stamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A record's output as a person reads it: its UTF-8 text, or its size when it is not text.
    static func output(_ bytes: [UInt8]?) -> String? {
        guard let bytes else { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return "(\(bytes.count) bytes, not UTF-8)"
    }

    /// A status as a coloured badge.
    static func status(_ status: CommandJournalStatus, into html: inout HTML) {
        html.element("span", status.rawValue, attributes: "class=\"status status-\(status.rawValue)\"")
    }

    /// The relative link to the record with `key`.
    static func recordHref(_ key: String) -> String {
        "record?" + QueryString.build([("key", key)])
    }

    /// The relative link to the workflow run with `key`.
    static func workflowHref(_ key: String) -> String {
        "workflow?" + QueryString.build([("key", key)])
    }
}
