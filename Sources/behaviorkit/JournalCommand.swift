import ArgumentParser
import Commands
import Foundation
import Scenarios

struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Lists, inspects and operates a durable command journal.",
        discussion: """
            `behaviorkit journal PATH` lists every record (`all`). The other subcommands read and act through the \
            journal's management API, on a SQLite file or a postgres:// URL; `--format json` prints JSON for \
            scripts. Actions (cancel, retry, prune, pause, rate-limit set, workflows cancel) ask for confirmation on standard input \
            unless given --yes.
            """,
        subcommands: [
            JournalAllCommand.self, JournalListCommand.self, JournalShowCommand.self, JournalWorkersCommand.self,
            JournalQueuesCommand.self, JournalActivityCommand.self, JournalCancelCommand.self, JournalRetryCommand.self,
            JournalPruneCommand.self,
            JournalPauseCommand.self, JournalResumeCommand.self, JournalRateLimitCommand.self,
            JournalSchedulesCommand.self,
            JournalWorkflowsCommand.self,
        ],
        defaultSubcommand: JournalAllCommand.self
    )
}

struct JournalAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Lists every record of a durable command journal with its status (the default).",
        discussion: """
            Prints one line per record, in sequence order: its number, status (pending, done, failed, \
            compensated), idempotency key and command kind, then the counts. The file may also be an application's \
            own GRDB database holding the journal's table. A file that is not a journal, or is corrupt or \
            truncated, is an error naming the file; it is never changed.
            """
    )

    @Argument(help: "The journal's SQLite file, or its postgres:// URL (as given to garage --journal).")
    var path: String

    func run() async throws {
        guard JournalLocation.isServerURL(path) || FileManager.default.fileExists(atPath: path) else {
            throw failure("command journal \(path): no such file")
        }
        do {
            try await JournalListing.run(path: path, console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}

/// `--format`: text for a person, JSON for scripts.
enum JournalFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    var operations: JournalOperations.Format { self == .json ? .json : .text }
}

/// The options every management subcommand takes: where the journal is, and how to print.
struct JournalLocationOptions: ParsableArguments {
    @Argument(help: "The journal's SQLite file, or its postgres:// URL.")
    var location: String

    @Option(name: .customLong("format"), help: "How to print: text or json.")
    var formatOption: JournalFormat = .text

    /// How to print.
    var format: JournalOperations.Format { formatOption.operations }

    /// Runs `body` on the opened journal; an error becomes `error: …` and exit 1.
    func run(_ body: (any CommandJournalManagement) async throws -> Void) async throws {
        try await exitingOnError { try await JournalOperations.withJournal(location, body) }
    }

    /// Runs `operation` on the opened journal, printing in ``format`` on standard output; an
    /// error becomes `error: …` and exit 1.
    func print(
        _ operation: (any CommandJournalManagement, JournalOperations.Format, Console) async throws -> Void
    ) async throws {
        try await run { opened in try await operation(opened, format, .standardOutput) }
    }

    /// As ``print(_:)``, once `confirmation` let `action` go on in this journal (asked after the
    /// journal opened, so that a journal that cannot be opened asks nothing).
    func print(
        confirming action: String, by confirmation: JournalConfirmation,
        _ operation: (any CommandJournalManagement, JournalOperations.Format, Console) async throws -> Void
    ) async throws {
        try await print { opened, format, console in
            try confirmation.confirm(action, in: self)
            try await operation(opened, format, console)
        }
    }
}
