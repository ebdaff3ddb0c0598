import ArgumentParser
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

    @OptionGroup var target: JournalQueueOptions
    @OptionGroup var confirmation: JournalConfirmation

    func run() async throws {
        try await target.setPaused(true, confirming: confirmation)
    }
}

struct JournalResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resumes a paused queue: its workers claim its records again, at once.")

    @OptionGroup var target: JournalQueueOptions

    func run() async throws {
        try await target.setPaused(false)
    }
}
