import ArgumentParser
import Scenarios

/// The arguments of the subcommands that act on one queue (`pause`, `resume`, `rate-limit set`,
/// `rate-limit remove`): the journal, then the queue's name.
struct JournalQueueOptions: ParsableArguments {
    @OptionGroup var journal: JournalLocationOptions
    @Argument(help: "The queue's name.") var queue: String

    /// Pauses the queue (`paused`) or resumes it, printing the outcome; asks `confirmation`
    /// first when one is given.
    func setPaused(_ paused: Bool, confirming confirmation: JournalConfirmation? = nil) async throws {
        let queue = queue
        let operation: JournalReport = {
            try await JournalOperations.pause($0, queue: queue, paused: paused, format: $1, console: $2)
        }
        guard let confirmation else { return try await journal.print(operation) }
        let action = paused ? "Pause" : "Resume"
        try await journal.print(confirming: "\(action) queue '\(queue)'", by: confirmation, operation)
    }
}
