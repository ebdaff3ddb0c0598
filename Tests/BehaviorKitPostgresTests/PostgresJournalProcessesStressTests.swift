import BehaviorKitPostgres
import BehaviorKitSync
import Commands
import Foundation
import Testing

/// Several journals on one table, each with its own pool: as many processes would be.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalProcessesStressTests {
    @Test func claimersWithSeparatePoolsNeverShareARecord() async throws {
        let journals = try await OpenJournals("claims")
        let table = journals.newTable()
        var processes: [PostgresCommandJournal] = []
        for _ in 0..<4 { processes.append(try await journals.open(table: table)) }
        for index in 0..<300 {
            _ = try await processes[index % 4].enqueue(entry("k\(index)"), queue: "q", after: .zero)
        }
        let taken = LockedValue<[String: String]>([:])
        let shared = LockedValue<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                let journal = processes[worker % 4]
                group.addTask {
                    let lease = JournalLease(owner: "worker-\(worker)", duration: .seconds(30))
                    while true {
                        let claim = try await journal.claim(7, from: "q", concurrency: nil, lease: lease)
                        if claim.records.isEmpty { return }
                        taken.withLock { taken in
                            for record in claim.records {
                                if taken[record.id] != nil { shared.withLock { $0.append(record.id) } }
                                taken[record.id] = lease.owner
                            }
                        }
                        for record in claim.records {
                            try await journal.settle(record.id, as: .done(output: nil), lease: lease)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(shared.withLock { $0 }.isEmpty)
        #expect(taken.withLock { $0.count } == 300)
        #expect(Set(taken.withLock { $0.values }).count > 1, "one worker took everything")
        #expect(try await processes[0].unfinished().isEmpty)
        await journals.closeAll()
    }

    @Test func aQueuesConcurrencyHoldsAcrossProcesses() async throws {
        let journals = try await OpenJournals("limit")
        let table = journals.newTable()
        var processes: [PostgresCommandJournal] = []
        for _ in 0..<4 { processes.append(try await journals.open(table: table)) }
        for index in 0..<40 { _ = try await processes[0].enqueue(entry("k\(index)"), queue: "q", after: .zero) }
        for round in 0..<3 {
            let held = try await withThrowingTaskGroup(of: [CommandJournalRecord].self) { group in
                for worker in 0..<8 {
                    let journal = processes[worker % 4]
                    group.addTask {
                        let lease = JournalLease(owner: "worker-\(round)-\(worker)", duration: .seconds(30))
                        return try await journal.claim(5, from: "q", concurrency: 3, lease: lease).records
                    }
                }
                return try await group.reduce(into: [CommandJournalRecord]()) { $0 += $1 }
            }
            #expect(held.count == 3, "round \(round): \(held.count) records held with a limit of 3")
            for record in held {
                let lease = JournalLease(owner: record.owner ?? "", duration: .seconds(30))
                try await processes[1].settle(record.id, as: .done(output: nil), lease: lease)
            }
        }
        await journals.closeAll()
    }

    @Test func processesOpeningANewJournalTogetherAllSucceed() async throws {
        let journals = try await OpenJournals("firstopen")
        let table = journals.newTable()
        let opened = try await withThrowingTaskGroup(of: PostgresCommandJournal.self) { group in
            for _ in 0..<6 { group.addTask { try await journals.open(table: table) } }
            return try await group.reduce(into: [PostgresCommandJournal]()) { $0.append($1) }
        }
        #expect(opened.count == 6)
        _ = try await opened[0].begin(entry("k"), lease: JournalLease(owner: "w", duration: .seconds(30)))
        #expect(try await opened[5].record(forKey: "k")?.owner == "w")
        let database = journals.database
        let tables = try await journals.cluster.psql(
            "SELECT count(*) FROM pg_tables WHERE tablename = '\(table)'", database: database)
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        await journals.closeAll()
    }
}
