import ArgumentParser
import Commands
import Foundation
import Scenarios

/// `--filter TERM` (repeated), `--limit` and `--after`: the records a bulk `retry` or `cancel`
/// acts on, a page at a time.
struct JournalBulkOptions: ParsableArguments {
    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "Act on every record that passes these terms instead of one KEY; repeat for several.",
            discussion: """
                Terms: dead (failed for good, not cancelled), status=S (pending, done, failed, compensated; \
                repeatable), queue=Q, kind=K, key-prefix=P, before=TIME (changed, so settled, before this \
                ISO 8601 time), since=TIME.
                """, valueName: "term"))
    var terms: [String] = []
    @Option(help: "With --filter: the most records one call acts on.") var limit = 1_000
    @Option(help: "With --filter: continue after the record with this number (the cursor a call printed).")
    var after: Int64?

    /// Whether a filter was given.
    var isBulk: Bool { !terms.isEmpty }

    /// The filter the terms make.
    ///
    /// - Throws: `ValidationError` naming a term that is not one.
    func filter() throws -> CommandJournalFilter {
        var filter = CommandJournalFilter()
        for term in terms {
            let parts = term.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            let value = parts.count == 2 ? parts[1] : nil
            switch (name, value) {
            case ("dead", nil):
                filter.statuses.insert(.failed)
                filter.cancelled = false
            case ("status", let value?):
                guard let status = CommandJournalStatus(rawValue: value) else {
                    throw ValidationError(
                        "--filter status='\(value)' is not a status: use pending, done, failed or compensated")
                }
                filter.statuses.insert(status)
            case ("queue", let value?): filter.queue = value
            case ("kind", let value?): filter.kind = value
            case ("key-prefix", let value?): filter.keyPrefix = value
            case ("before", let value?), ("since", let value?):
                guard let date = JournalTime.parse(value) else {
                    throw ValidationError(
                        "--filter \(name)='\(value)' is not an ISO 8601 time, such as 2026-11-25T12:00:00Z")
                }
                if name == "before" { filter.updatedBefore = date } else { filter.updatedSince = date }
            default:
                throw ValidationError(
                    "--filter '\(term)' is not a term: use dead, status=S, queue=Q, kind=K, key-prefix=P, "
                        + "before=TIME or since=TIME")
            }
        }
        return filter
    }

    /// Checks the terms, and that a bulk action has no KEY and a single one has no filter.
    func validate(key: String?) throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, not \(limit)") }
        if isBulk {
            if let key { throw ValidationError("give a KEY ('\(key)') or --filter terms, not both") }
            _ = try filter()
        } else if key == nil {
            throw ValidationError("give the record's KEY, or --filter terms to act on many")
        }
    }

    /// Acts on a limit of the records the terms pass in `journal`, once `confirmation` agreed to
    /// "`records` passing the terms in the journal?".
    func act(
        _ action: JournalOperations.BulkAction, confirming records: String, in journal: JournalLocationOptions,
        _ confirmation: JournalConfirmation
    ) async throws {
        let question = "\(records) passing \(terms.joined(separator: ", "))"
        try await journal.print(confirming: question, by: confirmation) {
            try await JournalOperations.act(
                action, $0, matching: try filter(), after: after, limit: limit, format: $1, console: $2)
        }
    }
}
