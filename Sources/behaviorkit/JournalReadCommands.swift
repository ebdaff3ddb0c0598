import ArgumentParser
import Commands
import Foundation
import Scenarios

struct JournalListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Lists the records that pass filters, a page at a time.",
        discussion: """
            Lists root records (commands and transactions; --steps adds their steps) in sequence order, \
            at most --limit of them; when more follow, the last line says the --after to pass for the next page. \
            Filters combine: every one given must hold.
            """
    )

    @OptionGroup var journal: JournalLocationOptions

    @OptionGroup var statuses: JournalStatusOptions
    @Option(help: "Only the records of this queue.") var queue: String?
    @Option(help: "Only this command kind.") var kind: String?
    @Option(help: "Only keys that start with this.") var keyPrefix: String?
    @Option(help: "Only the records this worker holds or settled.") var owner: String?
    @Option(help: "Only records that changed at or after this time (ISO 8601).") var since: String?
    @Option(help: "Only records that changed before this time (ISO 8601).") var until: String?
    @Flag(help: "List the steps of transactions too.") var steps = false
    @Option(help: "The most records to print.") var limit = 50
    @Option(help: "Continue after the record with this number (the cursor a page printed).") var after: Int64?

    func validate() throws {
        try JournalStatusOptions.validate(limit: limit)
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, JournalTime.parse(value) == nil {
                throw ValidationError("\(name) '\(value)' is not an ISO 8601 time, such as 2026-11-25T12:00:00Z")
            }
        }
    }

    func run() async throws {
        let filter = CommandJournalFilter(
            statuses: statuses.chosen, queue: queue, kind: kind,
            keyPrefix: keyPrefix, owner: owner, updatedSince: since.flatMap(JournalTime.parse),
            updatedBefore: until.flatMap(JournalTime.parse), rootsOnly: !steps)
        try await journal.print {
            try await JournalOperations.list($0, filter, after: after, limit: limit, format: $1, console: $2)
        }
    }
}

struct JournalShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Shows one record in full: its steps, attempts with their errors, due time and lease.")

    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The record's idempotency key.") var key: String

    func run() async throws {
        try await journal.print { try await JournalOperations.show($0, key: key, format: $1, console: $2) }
    }
}

struct JournalWorkersCommand: JournalReportCommand {
    static let configuration = CommandConfiguration(
        commandName: "workers", abstract: "Lists the workers holding records, what each holds, and its lease.")

    static let report: JournalReport = JournalOperations.workers
    @OptionGroup var journal: JournalLocationOptions
}

struct JournalQueuesCommand: JournalReportCommand {
    static let configuration = CommandConfiguration(
        commandName: "queues",
        abstract: "Lists each queue's pending records by state (due, delayed, running, stalled) and oldest due time.")

    static let report: JournalReport = JournalOperations.queues
    @OptionGroup var journal: JournalLocationOptions
}

struct JournalActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract:
            "Prints each queue's last minutes: records done and failed, attempts retried, and how long records "
            + "waited to be picked up.")

    @OptionGroup var journal: JournalLocationOptions

    @Option(help: "How many minutes back, up to now (1 to 10,080).")
    var minutes: Int = 60

    func validate() throws {
        guard (1...10_080).contains(minutes) else {
            throw ValidationError("--minutes must be from 1 to 10,080 (a week), not \(minutes)")
        }
    }

    func run() async throws {
        let minutes = minutes
        try await journal.print { opened, format, console in
            try await JournalOperations.activity(opened, minutes: minutes, format: format, console: console)
        }
    }
}

/// `--status`, repeated: the statuses a listing keeps.
struct JournalStatusOptions: ParsableArguments {
    @Option(help: "Only this status (pending, done, failed, compensated); repeat for several.")
    var status: [String] = []

    /// The statuses given.
    var chosen: Set<CommandJournalStatus> { Set(status.compactMap(CommandJournalStatus.init(rawValue:))) }

    func validate() throws {
        for value in status where CommandJournalStatus(rawValue: value) == nil {
            throw ValidationError("'\(value)' is not a status: use pending, done, failed or compensated")
        }
    }

    /// Refuses a `--limit` below 1.
    static func validate(limit: Int) throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, not \(limit)") }
    }
}

/// Times as the subcommands take them: ISO 8601, with or without fractional seconds.
enum JournalTime {
    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
