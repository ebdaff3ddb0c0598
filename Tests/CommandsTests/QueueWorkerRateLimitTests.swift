import BehaviorKitTesting
import Commands
import Foundation
import Synchronization
import Testing

/// A worker whose queue's own rate limit holds back its records sleeps until the next start
/// through the wake-ups of enqueues (`CommandJournalClaim.heldByRateLimit`): a busy producer does
/// not make it claim in vain at each enqueue.
struct QueueWorkerRateLimitTests {
    /// An in-memory journal that counts claims and passes on its wake-ups.
    final class CountingJournal: ForwardingCommandJournal, QueueWakeSource, @unchecked Sendable {
        let memory: InMemoryCommandJournal
        let claims = Mutex(0)

        init(clock: ManualClock) {
            memory = InMemoryCommandJournal(clock: clock)
            super.init(memory)
        }

        override func claim(
            _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?,
            takingOverFrom deadOwner: String?, lease: JournalLease
        ) async throws -> CommandJournalClaim {
            claims.withLock { $0 += 1 }
            return try await super.claim(
                limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
                lease: lease)
        }

        func wakeups(of queue: String) -> AsyncStream<Void> { memory.wakeups(of: queue) }
    }

    @Test func aWorkerHeldByItsQueuesLimitSleepsThroughEnqueues() async throws {
        let clock = ManualClock()
        let journal = CountingJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register("noop", arguments: Int.self) { _ in ClosureCommand("noop", execute: {}) }
        let queue = CommandQueue("paced", journal: journal)
        try await queue.setRateLimit(try QueueRateLimit(starts: 1, per: .seconds(10)))
        try await queue.enqueue(kind: "noop", arguments: 0, key: "elsewhere")
        let other = JournalLease(owner: "other", duration: .seconds(3_600))
        let taken = try await journal.claim(1, from: "paced", concurrency: nil, lease: other)
        #expect(taken.records.map(\.id) == ["elsewhere"])
        let worker = QueueWorker(
            queue, invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        await clock.waitForSleepers(count: 1)
        let asleep = journal.claims.withLock { $0 }
        for index in 1...20 {
            try await queue.enqueue(kind: "noop", arguments: index, key: "job-\(index)")
            for _ in 0..<50 { await Task.yield() }
        }
        await clock.advance(by: .seconds(10))
        #expect(await eventually { worker.statistics.claimed == 1 })
        let claims = journal.claims.withLock { $0 } - asleep
        #expect(claims <= 3, "the worker claimed \(claims) times for 20 enqueues and one start")
        run.cancel()
        await run.value
    }
}
