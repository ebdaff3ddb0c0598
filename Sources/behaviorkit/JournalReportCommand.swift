import ArgumentParser
import Commands
import Scenarios

/// Prints a report of the opened journal, in the format, on the console.
typealias JournalReport =
    @Sendable (
        _ journal: any CommandJournalManagement, _ format: JournalOperations.Format, _ console: Console
    ) async throws -> Void

/// A subcommand that prints one report of the journal (`workers`, `queues`, `schedules`,
/// `rate-limit show`): the journal's location and `--format` are all it takes.
protocol JournalReportCommand: AsyncParsableCommand {
    /// The report it prints.
    static var report: JournalReport { get }

    /// Where the journal is, and how to print.
    var journal: JournalLocationOptions { get }
}

extension JournalReportCommand {
    func run() async throws {
        try await journal.print(Self.report)
    }
}
