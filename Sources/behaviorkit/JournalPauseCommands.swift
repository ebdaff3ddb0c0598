import ArgumentParser
import Commands
import Scenarios

struct JournalPauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pauses a queue: no worker of any process starts its records until it is resumed.",
        discussion: """
            The pause is kept in the journal. The records already running finish and settle; callers can still \
            enqueue; other queues go on. Resume it with `behaviorkit journal resume QUEUE`.
            """
    )

    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The queue's name.") var queue: String
    @OptionGroup var confirmation: JournalConfirmation

    func run() async throws {
        try await journal.print(confirming: "Pause queue '\(queue)'", by: confirmation) {
            try await JournalOperations.pause($0, queue: queue, paused: true, format: $1, console: $2)
        }
    }
}

struct JournalResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resumes a paused queue: its workers claim its records again, at once.")

    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The queue's name.") var queue: String

    func run() async throws {
        try await journal.print {
            try await JournalOperations.pause($0, queue: queue, paused: false, format: $1, console: $2)
        }
    }
}
