import BehaviorKitTesting
import Commands
import Foundation
import Synchronization
import Testing

/// The README's job-queue sample ("A job queue"), line for line in `sample` but for the journal
/// (in memory here): the charge enqueued in the handler runs (under the rate limit, which is kept), the schedule is kept, and both
/// loops stop when their task is cancelled.
struct ReadmeQueueSampleTests {
    struct Charge: JournaledCommand {
        static let journalKind = "payments.charge"
        static let charged = LockedCounter()
        var order: Int
        var cents: Int
        var name: String { "charge order \(order)" }
        func execute() async throws { Self.charged.increment() }
        func undo() async throws {}
    }

    struct Payout: JournaledCommand {
        static let journalKind = "payments.payout"
        var name: String { "pay the merchants out" }
        func execute() async throws {}
        func undo() async throws {}
    }

    final class LockedCounter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    func sample(journal: any CommandJournalManagement, registry: CommandRegistry, berlin: TimeZone) async throws {
        let payments = CommandQueue("payments", journal: journal, concurrency: 32, concurrencyPerPartition: 2)

        // In a request handler: durable once it returns; at most 2 run at once per customer, fleet-wide.
        try await payments.enqueue(Charge(order: 42, cents: 990), key: "order-42/charge", partition: "customer-7")

        // At start-up: at most 100 charges a second, fleet-wide (a token bucket in the journal).
        try await payments.setRateLimit(try QueueRateLimit(starts: 100, per: .seconds(1)))

        // At start-up: every night at 02:00 in Berlin, one run across the fleet (a missed night runs once).
        try await payments.schedule("payouts", cron: "0 2 * * *", timeZone: berlin, command: Payout())

        // In every worker process: woken by each enqueue (in every process on PostgreSQL), 16 at a time.
        let worker = QueueWorker(payments, invoker: JournaledInvoker(journal: journal, registry: registry), slots: 16)
        let scheduler = QueueScheduler(journal: journal)  // enqueues each tick once, however many run it
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await worker.run() }
            group.addTask { try await scheduler.run() }
        }
    }

    @Test func theChargeRunsTheScheduleIsKeptAndTheLoopsStopWhenCancelled() async throws {
        let journal = InMemoryCommandJournal()
        var registry = CommandRegistry()
        registry.register(Charge.self)
        registry.register(Payout.self)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let running = Task { [registry] in try await sample(journal: journal, registry: registry, berlin: berlin) }
        #expect(await eventually { journal.records.first { $0.id == "order-42/charge" }?.status == .done })
        #expect(Charge.charged.value == 1)
        let kept = try await journal.schedules()
        #expect(kept.map(\.schedule.name) == ["payouts"])
        #expect(kept.first?.schedule.timeZone == berlin)
        let limits = try await journal.rateLimits()
        #expect(
            limits == [
                CommandJournalRateLimit(
                    queue: "payments", scope: .queue, limit: try QueueRateLimit(starts: 100, per: .seconds(1)))
            ])
        running.cancel()
        try await running.value
    }
}
