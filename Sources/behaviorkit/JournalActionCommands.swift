import ArgumentParser
import Commands
import Foundation
import Scenarios

/// `--yes`, and the question an action asks without it.
struct JournalConfirmation: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Act without asking for confirmation.")
    var yes = false

    /// Returns when the action may go on: `--yes`, or "y"/"yes" read from standard input after
    /// `question` on standard error.
    ///
    /// - Throws: exit 64 when standard input has no answer (a script without `--yes`); exit 1
    ///   when the answer is not yes.
    func confirm(_ question: String) throws {
        if yes { return }
        StandardStream.error.write("\(question) [y/N] ")
        guard let answer = readLine() else {
            StandardStream.error.writeLine("")
            StandardStream.error.writeLine(
                "error: no confirmation: standard input gave no answer; pass --yes to act without asking")
            throw ExitCode.validationFailure
        }
        guard ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
            StandardStream.error.writeLine("not confirmed: nothing changed")
            throw ExitCode.failure
        }
    }

    /// Asks "`action` in `journal`?", naming the journal without its password.
    func confirm(_ action: String, in journal: JournalLocationOptions) throws {
        try confirm("\(action) in \(JournalOperations.redacted(journal.location))?")
    }
}

struct JournalCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancels a waiting record (it never runs) or a running transaction (it compensates).",
        discussion: """
            A pending record no worker holds settles failed, "cancelled: REASON". A durable transaction a worker \
            runs is taken from it (its next write is refused, so it stops before its next step) and falls due at \
            once: the next worker (its queue's, or a recovery for work run by callers) compensates it. So is a \
            workflow's run that a worker or its caller runs: it stops at its next step (`journal workflows cancel` \
            cancels its children too).

            With --filter TERM instead of a KEY, cancels every pending record that passes the terms, at most \
            --limit a call; a command a live worker runs is refused, and the call prints the cursor to go on with \
            (--after).
            """
    )

    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The record's idempotency key (or --filter).") var key: String?
    @Option(help: "Why, written into the record.") var reason = "by an operator"
    @OptionGroup var bulk: JournalBulkOptions
    @OptionGroup var confirmation: JournalConfirmation

    func validate() throws {
        try bulk.validate(key: key)
    }

    func run() async throws {
        guard let key else {
            return try await bulk.act(
                .cancel(reason: reason), confirming: "Cancel the pending records", in: journal, confirmation)
        }
        try await journal.print(confirming: "Cancel '\(key)'", by: confirmation) {
            try await JournalOperations.cancel($0, key: key, reason: reason, format: $1, console: $2)
        }
    }
}

struct JournalRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Retries a failed or compensated record: pending again, due at once, for a new attempt.",
        discussion: """
            With --filter TERM instead of a KEY, retries every failed or compensated record that passes the \
            terms, at most --limit a call (--filter dead: the dead letters, failed for good and not cancelled); \
            the call prints the cursor to go on with (--after).

            With --as NEWKEY, forks it instead: its work runs again from the start under NEWKEY, on its queue \
            (or --queue), and the record stays as it was, settled. Any settled record can be forked; forking \
            into the same NEWKEY again changes nothing.
            """
    )

    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The record's idempotency key (or --filter).") var key: String?
    @Option(name: .customLong("as"), help: "Fork the record into this new key instead of retrying it.")
    var newKey: String?
    @Option(help: "The queue the fork goes to (default: the record's own). Only with --as.") var queue: String?
    @OptionGroup var bulk: JournalBulkOptions
    @OptionGroup var confirmation: JournalConfirmation

    func validate() throws {
        if queue != nil && newKey == nil { throw ValidationError("--queue goes with --as NEWKEY (a fork)") }
        if bulk.isBulk && newKey != nil { throw ValidationError("--as NEWKEY forks one KEY, not --filter terms") }
        try bulk.validate(key: key)
    }

    func run() async throws {
        guard let key else {
            return try await bulk.act(.retry, confirming: "Retry the failed records", in: journal, confirmation)
        }
        if let newKey {
            return try await journal.print(confirming: "Fork '\(key)' as '\(newKey)'", by: confirmation) {
                try await JournalOperations.fork($0, key: key, as: newKey, queue: queue, format: $1, console: $2)
            }
        }
        try await journal.print(confirming: "Retry '\(key)'", by: confirmation) {
            try await JournalOperations.retry($0, key: key, format: $1, console: $2)
        }
    }
}

struct JournalPruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Deletes the records that settled before a time, with their steps; pending ones stay.")

    @OptionGroup var journal: JournalLocationOptions
    @Option(help: "Delete what settled before this time (ISO 8601).") var before: String?
    @Option(help: "Delete what settled more than this many seconds ago.") var olderThan: Int?
    @OptionGroup var confirmation: JournalConfirmation

    func validate() throws {
        guard (before == nil) != (olderThan == nil) else {
            throw ValidationError("give one of --before TIME or --older-than SECONDS")
        }
        if let before, JournalTime.parse(before) == nil {
            throw ValidationError("--before '\(before)' is not an ISO 8601 time, such as 2026-11-25T12:00:00Z")
        }
        if let olderThan, olderThan < 0 { throw ValidationError("--older-than must be 0 or more, not \(olderThan)") }
    }

    func run() async throws {
        let date = before.flatMap(JournalTime.parse) ?? Date().addingTimeInterval(-Double(olderThan ?? 0))
        try await journal.print { opened, format, console in
            try confirmation.confirm(
                "Delete every record of \(JournalOperations.redacted(journal.location)) that settled before "
                    + "\(JournalRecordView.time(date))?")
            try await JournalOperations.prune(opened, before: date, format: format, console: console)
        }
    }
}
