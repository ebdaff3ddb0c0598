import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

@testable import BehaviorKitPostgres

/// `enqueue(contentsOf:)` writes its jobs in one statement of arrays: four processes enqueueing
/// overlapping keys at once each answer every key's one record (a key another process inserted
/// while the statement waited on it is read again), and each key is written once.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresBulkEnqueueTests {
    @Test func processesEnqueueingOverlappingKeysAtOnceEachAnswerTheOneRecordOfEveryKey() async throws {
        let journals = try await OpenJournals("bulk")
        let table = journals.newTable()
        var processes: [PostgresCommandJournal] = []
        for _ in 0..<4 { processes.append(try await journals.open(table: table)) }
        let keys = (0..<2_000).map { "job-\($0)" }
        let answers = try await withThrowingTaskGroup(of: [CommandJournalRecord].self) { group in
            for (number, journal) in processes.enumerated() {
                group.addTask {
                    // Each process starts at another place, so that their inserts meet on locked keys.
                    let mine = Array(keys[(number * 500)...] + keys[..<(number * 500)])
                    return try await CommandQueue("bulk", journal: journal).enqueue(
                        contentsOf: mine.map { QueuedJob(entry($0)) })
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(answers.count == 4 * keys.count)
        var sequences: [String: Set<Int64>] = [:]
        for record in answers { sequences[record.id, default: []].insert(record.sequence) }
        #expect(sequences.count == keys.count)
        #expect(sequences.values.allSatisfy { $0.count == 1 }, "a key answered two records")
        #expect(try await processes[0].allRecords().count == keys.count)
    }

    /// A value the server refuses (a partition too long for its index) fails the one statement;
    /// the jobs then go one by one, so that only the job at fault is refused.
    @Test func aJobTheServerRefusesIsRefusedAloneAndTheOthersAreWritten() async throws {
        let journals = try await OpenJournals("bulk")
        let journal = try await journals.open(table: journals.newTable())
        var random = SplitMix64(seed: 42)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        // Random, so that PostgreSQL cannot compress it below the index's 2,704 bytes.
        let huge = String((0..<4_000).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
        do {
            _ = try await CommandQueue("bulk", journal: journal).enqueue(contentsOf: [
                QueuedJob(entry("before")), QueuedJob(entry("huge"), partition: huge), QueuedJob(entry("after")),
            ])
            Issue.record("a job whose partition the server cannot index was taken")
        } catch let error as BulkEnqueueError {
            #expect(error.refusals.map(\.index) == [1])
            #expect(error.records.map { $0?.id } == ["before", nil, "after"])
        }
        #expect(try await journal.allRecords().map(\.id) == ["before", "after"])
    }

    /// The records a bulk enqueue answers are the journal's own, field for field: those it
    /// wrote (built from the jobs and what the server chose: sequence, due time, time written),
    /// a key written twice in the call, and a key there before (read back whole).
    @Test func theRecordsAnsweredAreTheJournalsOwn() async throws {
        let journals = try await OpenJournals("bulk")
        let journal = try await journals.open(table: journals.newTable())
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "there", kind: "old", payload: [9]), queue: "other", after: .seconds(5))
        let answered = try await CommandQueue("bulk", journal: journal).enqueue(contentsOf: [
            QueuedJob(entry("a", payload: [1, 2]), after: .seconds(30), priority: 7),
            QueuedJob(entry("b", parent: "a")),
            QueuedJob(entry("a", payload: [1, 2]), after: .seconds(30), priority: 7),
            QueuedJob(CommandJournalEntry(idempotencyKey: "there", kind: "old", payload: [9])),
        ])
        #expect(answered.map(\.id) == ["a", "b", "a", "there"])
        for record in answered {
            let stored = try #require(try await journal.record(forKey: record.id))
            #expect(record == stored, "\(record.id): answered \(record), stored \(stored)")
        }
        #expect(answered[3].queue == "other" && answered[0].priority == 7 && answered[1].entry.parentKey == "a")
        await journals.closeAll()
    }
}
