public import Commands
public import Foundation

extension JournalOperations {
    /// Cancels `key` and prints what became of it.
    public static func cancel(
        _ journal: any CommandJournalManagement, key: String, reason: String, format: Format, console: Console
    ) async throws {
        let record = try await journal.cancel(key, reason: reason)
        switch format {
        case .json: console.print(try json(JournalRecordView(record)))
        case .text:
            let next =
                record.workflowName == nil ? "compensates it" : "settles it cancelled (it stops at its next step)"
            console.print(
                cancelled("'\(key)'", record, running: " (attempt \(record.attempts) is next); the next worker \(next)")
            )
        }
    }

    /// What became of `record`, which a cancellation of `what` answered: settled, or taken from
    /// its worker and then `running`.
    static func cancelled(_ what: String, _ record: CommandJournalRecord, running: String) -> String {
        guard record.status == .pending else {
            return "cancelled \(what): \(record.status.rawValue) (\(record.failureReason ?? ""))"
        }
        return "cancelled \(what): taken from its worker" + running
    }

    /// Retries `key` and prints what became of it.
    public static func retry(
        _ journal: any CommandJournalManagement, key: String, format: Format, console: Console
    ) async throws {
        let record = try await journal.retry(key)
        switch format {
        case .json: console.print(try json(JournalRecordView(record)))
        case .text:
            let runner = record.queue.map { "a worker of queue '\($0)' claims it" } ?? "a recovery takes it"
            console.print("retried '\(key)': pending, due now; \(runner)")
        }
    }

    /// Forks `key` into `newKey` (on `queue`, or the record's own) and prints the new record.
    public static func fork(
        _ journal: any CommandJournalManagement, key: String, as newKey: String, queue: String?, format: Format,
        console: Console
    ) async throws {
        let record = try await journal.fork(key, as: newKey, queue: queue)
        try printFork(record, of: key, format: format, console: console, copied: "")
    }

    /// Prints `record`, the new record of a fork of `key`: as JSON, or a line that names it,
    /// what was `copied` (empty: nothing), and the queue it is due on.
    static func printFork(
        _ record: CommandJournalRecord, of key: String, format: Format, console: Console, copied: String
    ) throws {
        switch format {
        case .json: console.print(try json(JournalRecordView(record)))
        case .text:
            console.print(
                "forked '\(key)' as '\(record.id)': pending, due now on queue '\(record.queue ?? "-")'; "
                    + copied + "'\(key)' stays as it was")
        }
    }

    /// Prunes what settled before `date` and prints how many records went.
    public static func prune(
        _ journal: any CommandJournalManagement, before date: Date, format: Format, console: Console
    )
        async throws
    {
        let count = try await journal.prune(settledBefore: date)
        switch format {
        case .json:
            struct Pruned: Encodable {
                let deleted: Int
                let settledBefore: String
            }
            console.print(try json(Pruned(deleted: count, settledBefore: JournalRecordView.time(date))))
        case .text:
            console.print(
                "pruned \(count) \(count == 1 ? "record" : "records") settled before \(JournalRecordView.time(date))")
        }
    }

    /// Pauses `queue` (`paused`) or resumes it, and prints the queues paused now.
    public static func pause(
        _ journal: any CommandJournalManagement, queue: String, paused: Bool, format: Format, console: Console
    ) async throws {
        if paused { try await journal.pause(queue: queue) } else { try await journal.resume(queue: queue) }
        let now = try await journal.pausedQueues().sorted()
        switch format {
        case .json:
            struct Paused: Encodable {
                let queue: String
                let paused: Bool
                let pausedQueues: [String]
            }
            console.print(try json(Paused(queue: queue, paused: paused, pausedQueues: now)))
        case .text:
            console.print(
                paused
                    ? "paused queue '\(queue)': its workers start nothing until it is resumed"
                    : "resumed queue '\(queue)': its workers claim again")
        }
    }

    /// `location` with a URL's password replaced by `***`, for prompts and messages.
    public static func redacted(_ location: String) -> String {
        guard JournalLocation.isServerURL(location), var components = URLComponents(string: location),
            components.password != nil
        else { return location }
        components.password = "***"
        return components.string ?? "the server"
    }
}
