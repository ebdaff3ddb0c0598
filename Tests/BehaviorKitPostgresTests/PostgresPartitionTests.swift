import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

@testable import BehaviorKitPostgres

/// A limit per partition across processes: four journals on one table, each with its own pool
/// (four processes), claim at once, in several rounds; no partition ever runs more than its limit.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresPartitionTests {
    @Test func concurrentClaimersOfSeveralProcessesNeverExceedAPartitionsLimit() async throws {
        let journals = try await OpenJournals("partitions")
        let table = journals.newTable()
        var processes: [PostgresCommandJournal] = []
        for _ in 0..<4 { processes.append(try await journals.open(table: table)) }
        let queue = CommandQueue("reports", journal: processes[0], concurrencyPerPartition: 2)
        try await queue.enqueue(
            contentsOf: (0..<30).flatMap { index in
                ["tenant-a", "tenant-b", "tenant-c"].map { (tenant: String) in
                    QueuedJob(entry("\(tenant)-\(index)"), partition: tenant)
                }
            })
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for (number, journal) in processes.enumerated() {
                for worker in 0..<3 {
                    group.addTask {
                        let lease = JournalLease(owner: "process-\(number)-\(worker)", duration: .seconds(3_600))
                        var taken: [String] = []
                        for _ in 0..<4 {
                            taken += try await journal.claim(
                                2, from: "reports", concurrency: nil, perPartition: 2, lease: lease
                            ).records.map(\.id)
                        }
                        return taken
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        for tenant in ["tenant-a", "tenant-b", "tenant-c"] {
            #expect(claimed.count { $0.hasPrefix(tenant + "-") } == 2, "\(tenant): \(claimed.sorted())")
        }
        await journals.closeAll()
    }
}
