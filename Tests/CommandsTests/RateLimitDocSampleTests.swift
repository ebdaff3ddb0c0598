import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The guide's "A rate limit" (DurableWork.md), line for line in `sample`, on an in-memory journal
/// and a manual clock: what each line promises holds.
struct RateLimitDocSampleTests {
    let lease = JournalLease(owner: "worker", duration: .seconds(3_600))

    func sample(payments: CommandQueue, reports: CommandQueue, thenRemove remove: Bool) async throws {
        // At most 10 charges a second across the fleet; after a quiet spell, up to 10 more at once.
        try await payments.setRateLimit(try QueueRateLimit(starts: 10, per: .seconds(1), burst: 10))
        // At most 1 export a minute for each tenant: each partition has a bucket of its own.
        try await reports.setRateLimit(try QueueRateLimit(starts: 1, per: .seconds(60)), for: .partition)
        if remove { try await payments.setRateLimit(nil) }  // removed: the workers start what they claim
    }

    func entry(_ key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: "sample")
    }

    @Test func eachLineOfTheSampleHolds() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let payments = CommandQueue("payments", journal: journal)
        let reports = CommandQueue("reports", journal: journal)
        for order in 0..<30 { try await payments.enqueue(entry("charge-\(order)")) }
        for tenant in [7, 9] {
            for month in 0..<2 {
                try await reports.enqueue(entry("export-\(tenant)-\(month)"), partition: "tenant-\(tenant)")
            }
        }
        try await sample(payments: payments, reports: reports, thenRemove: false)
        // 10 a second, and 10 more at once after a quiet spell: 11 now, then one every 100 ms.
        #expect(try await journal.claim(30, from: "payments", concurrency: nil, lease: lease).records.count == 11)
        let held = try await journal.claim(30, from: "payments", concurrency: nil, lease: lease)
        #expect(held.records.isEmpty && held.nextDue == .milliseconds(100))
        await clock.advance(by: .seconds(1))
        #expect(try await journal.claim(30, from: "payments", concurrency: nil, lease: lease).records.count == 10)
        // One export a minute for each tenant, apart.
        let exports = try await journal.claim(10, from: "reports", concurrency: nil, lease: lease).records.map(\.id)
        #expect(exports == ["export-7-0", "export-9-0"])
        #expect(try await journal.claim(10, from: "reports", concurrency: nil, lease: lease).records.isEmpty)
        // Removed: the rest start at once.
        try await sample(payments: payments, reports: reports, thenRemove: true)
        #expect(try await journal.claim(30, from: "payments", concurrency: nil, lease: lease).records.count == 9)
        #expect(try await payments.rateLimit() == nil)
        #expect(try await reports.rateLimit(for: .partition)?.starts == 1)
    }
}
