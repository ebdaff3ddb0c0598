import BehaviorKitSQLite
public import Commands
import Foundation
import GRDB

/// `behaviorkit journal list|show|workers|queues|cancel|retry|prune`: the journal's management
/// API (`CommandJournal`'s listing, details, workers, queues and actions) on a SQLite file or a
/// `postgres://` URL, printed as text or JSON.
public enum JournalOperations {
    /// How the commands print.
    public enum Format: String, Sendable, CaseIterable {
        /// Lines for a person.
        case text
        /// JSON for scripts: sorted keys, times in ISO 8601.
        case json
    }

    /// Opens the journal at `location` (a file that must exist, an application's database
    /// holding the journal's table, or a `postgres://` URL), runs `body` on it, and closes it.
    ///
    /// - Throws: an error naming the file when there is none; the journal's or `body`'s error.
    public static func withJournal<T: Sendable>(
        _ location: String, _ body: (any CommandJournalManagement) async throws -> T
    ) async throws -> T {
        guard JournalLocation.isServerURL(location) || FileManager.default.fileExists(atPath: location) else {
            throw JournalOperationError("command journal \(location): no such file")
        }
        let journal = try await open(location)
        do {
            let result = try await body(journal)
            try await journal.close()
            return result
        } catch {
            try? await journal.close()
            throw error
        }
    }

    /// The journal at `location`: a `postgres://` URL, a journal file, or an application's own
    /// database holding the journal's table (opened on a pool of its own).
    static func open(_ location: String) async throws -> any CommandJournalManagement {
        guard !JournalLocation.isServerURL(location) else { return try await JournalLocation.open(location) }
        do {
            return try SQLiteCommandJournal(path: location)
        } catch  where error.code == .notAJournal {
            // The reader recognises an application's database by the journal's table in it.
            guard (try? SQLiteCommandJournalReader(path: location)) != nil else { throw error }
            return SQLiteCommandJournal(database: try DatabasePool(path: location), path: location)
        }
    }

    /// Prints one page of the records passing `filter`, and how to get the next.
    public static func list(
        _ journal: any CommandJournalManagement, _ filter: CommandJournalFilter, after cursor: Int64?, limit: Int,
        format: Format, console: Console
    ) async throws {
        let page = try await journal.records(matching: filter, after: cursor, limit: limit)
        try print(page, format: format, console: console, lines: JournalText.lines, noun: ("record", "records"))
    }

    /// Prints `page`: its records as `lines` says, or as JSON, then the cursor of the next page,
    /// or how many records it holds, named by `noun` (singular, plural).
    static func print(
        _ page: CommandJournalPage, format: Format, console: Console,
        lines: ([CommandJournalRecord]) -> [String], noun: (one: String, many: String)
    ) throws {
        switch format {
        case .json:
            struct Page: Encodable {
                let records: [JournalRecordView]
                let nextCursor: Int64?
            }
            console.print(
                try json(Page(records: page.records.map(JournalRecordView.init), nextCursor: page.nextCursor)))
        case .text:
            for line in lines(page.records) { console.print(line) }
            if let next = page.nextCursor {
                console.print("more: --after \(next)")
            } else {
                console.print(page.records.count == 1 ? "1 \(noun.one)" : "\(page.records.count) \(noun.many)")
            }
        }
    }

    /// Prints the record `key` in full.
    ///
    /// - Throws: ``JournalOperationError`` when there is no such key.
    public static func show(
        _ journal: any CommandJournalManagement, key: String, format: Format, console: Console
    ) async throws {
        guard let details = try await journal.details(forKey: key) else {
            throw JournalOperationError("no journal record has the idempotency key '\(key)'")
        }
        switch format {
        case .json: console.print(try json(JournalDetailsView(details)))
        case .text: for line in JournalText.lines(details) { console.print(line) }
        }
    }

    /// Prints the workers holding records.
    public static func workers(_ journal: any CommandJournalManagement, format: Format, console: Console) async throws {
        let workers = try await journal.workers()
        switch format {
        case .json:
            struct Worker: Encodable {
                let owner: String
                let holds: [String]
                let leaseExpiresAt: String
                let earliestLeaseExpiry: String
            }
            console.print(
                try json(
                    workers.map {
                        Worker(
                            owner: $0.owner, holds: $0.holds, leaseExpiresAt: JournalRecordView.time($0.leaseExpiresAt),
                            earliestLeaseExpiry: JournalRecordView.time($0.earliestLeaseExpiry))
                    }))
        case .text:
            for worker in workers {
                console.print(
                    "\(worker.owner)  holds \(worker.holds.count): \(worker.holds.joined(separator: ", "))  "
                        + "lease until \(JournalRecordView.time(worker.leaseExpiresAt))")
            }
            console.print(workers.count == 1 ? "1 worker holds records" : "\(workers.count) workers hold records")
        }
    }

    /// Prints each queue's depth by state.
    public static func queues(_ journal: any CommandJournalManagement, format: Format, console: Console) async throws {
        let queues = try await journal.queues()
        switch format {
        case .json:
            struct Queue: Encodable {
                let name: String?
                let due, delayed, running, stalled: Int
                let oldestDue: String?
            }
            console.print(
                try json(
                    queues.map {
                        Queue(
                            name: $0.name, due: $0.due, delayed: $0.delayed, running: $0.running, stalled: $0.stalled,
                            oldestDue: $0.oldestDue.map(JournalRecordView.time))
                    }))
        case .text:
            for line in JournalText.lines(queues) { console.print(line) }
        }
    }

    /// Prints what each queue did in the last `minutes`: records done and failed, attempts
    /// retried, and how long records waited to be picked up (`activity(since:)`); in JSON, each
    /// queue's minutes.
    public static func activity(
        _ journal: any CommandJournalManagement, minutes: Int, format: Format, console: Console
    ) async throws {
        let since = QueueActivity.minute(of: Date()).addingTimeInterval(-Double(max(1, minutes) - 1) * 60)
        let activity = try await journal.activity(since: since)
        switch format {
        case .json:
            struct Minute: Encodable {
                let queue, minute: String
                let done, failed, retried, pickups: Int
                let meanPickupMilliseconds: Double?
                let longestPickupMilliseconds: Int64?
            }
            console.print(
                try json(
                    activity.map {
                        Minute(
                            queue: $0.queue, minute: JournalRecordView.time($0.minute), done: $0.done,
                            failed: $0.failed, retried: $0.retried, pickups: $0.pickups,
                            meanPickupMilliseconds: $0.pickups > 0
                                ? Double($0.pickupMilliseconds) / Double($0.pickups) : nil,
                            longestPickupMilliseconds: $0.pickups > 0 ? $0.longestPickupMilliseconds : nil)
                    }))
        case .text:
            for line in JournalText.lines(activity, minutes: max(1, minutes)) { console.print(line) }
        }
    }

    /// `value` as JSON with sorted keys.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A refusal of `behaviorkit journal`'s subcommands, naming the problem.
public struct JournalOperationError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// An error that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}
