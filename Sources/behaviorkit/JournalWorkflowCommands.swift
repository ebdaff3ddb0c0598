import ArgumentParser
import Commands
import Foundation
import Scenarios

struct JournalWorkflowsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workflows",
        abstract:
            "Lists workflow runs, shows one (its steps, sleeps, waits, children, messages), cancels or forks one.",
        subcommands: [
            JournalWorkflowsListCommand.self, JournalWorkflowsShowCommand.self, JournalWorkflowsCancelCommand.self,
            JournalWorkflowsForkCommand.self,
        ],
        defaultSubcommand: JournalWorkflowsListCommand.self
    )
}

struct JournalWorkflowsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Lists the workflow runs (children too), a page at a time (the default).",
        discussion: """
            One line per run, in sequence order: its number, status, key and workflow, the worker or caller that \
            holds it, its attempts and its error; at most --limit, and when more follow, the --after to pass for \
            the next page.
            """
    )

    @OptionGroup var journal: JournalLocationOptions
    @OptionGroup var statuses: JournalStatusOptions
    @Option(help: "Only keys that start with this.") var keyPrefix: String?
    @Option(help: "The most runs to print.") var limit = 50
    @Option(help: "Continue after the run with this number (the cursor a page printed).") var after: Int64?

    func validate() throws {
        try JournalStatusOptions.validate(limit: limit)
    }

    func run() async throws {
        let filter = CommandJournalFilter(statuses: statuses.chosen, keyPrefix: keyPrefix)
        try await journal.print {
            try await JournalOperations.workflowRuns($0, filter, after: after, limit: limit, format: $1, console: $2)
        }
    }
}

struct JournalWorkflowsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Shows one workflow run: its state, steps with outputs and errors, sleeps, waits, children, messages."
    )

    @OptionGroup var target: JournalRunOptions

    func run() async throws {
        let key = target.key
        try await target.journal.print {
            try await JournalOperations.workflowRun($0, key: key, format: $1, console: $2)
        }
    }
}

struct JournalWorkflowsCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancels a workflow run and the child runs it started.",
        discussion: """
            A run that waits (sleeps, receives, waits for a child) settles failed, "cancelled: REASON", unless it \
            has steps to compensate: the next worker compensates them. A run a worker or its caller runs now is \
            taken from it: its code stops at its next step, sleep or receive, and the attempt that takes it next \
            settles it cancelled (compensating its steps first). Its children that have not settled are cancelled \
            too, naming their parent.
            """
    )

    @OptionGroup var target: JournalRunOptions
    @Option(help: "Why, written into the run.") var reason = "by an operator"
    @OptionGroup var confirmation: JournalConfirmation

    func run() async throws {
        let key = target.key
        let action = "Cancel the workflow run '\(key)' and its children"
        try await target.journal.print(confirming: action, by: confirmation) {
            try await JournalOperations.cancelWorkflowRun($0, key: key, reason: reason, format: $1, console: $2)
        }
    }
}

struct JournalWorkflowsForkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fork",
        abstract: "Runs a settled workflow run again from a position, under a new key (DBOS's fork).",
        discussion: """
            The new run copies the run's positions before --from (its steps' outputs and errors, sleeps, receives, \
            children), which answer from the copy, and a worker runs the workflow's current code from there. The \
            run forked stays as it was. Refused for a run still pending, a position past those it settled, or a \
            new key in use.
            """
    )

    @OptionGroup var target: JournalRunOptions
    @Option(help: "The position to run again from (0: the start); those before it are copied.") var from: Int
    @Option(name: .customLong("as"), help: "The new run's key (default: KEY-fork-POSITION).") var newKey: String?
    @OptionGroup var confirmation: JournalConfirmation

    func validate() throws {
        guard from >= 0 else { throw ValidationError("--from must be 0 or more") }
    }

    func run() async throws {
        let key = target.key
        let newKey = newKey ?? "\(key)-fork-\(from)"
        let action = "Fork the workflow run '\(key)' from position \(from) as '\(newKey)'"
        try await target.journal.print(confirming: action, by: confirmation) {
            try await JournalOperations.forkWorkflowRun($0, key: key, from: from, as: newKey, format: $1, console: $2)
        }
    }
}
