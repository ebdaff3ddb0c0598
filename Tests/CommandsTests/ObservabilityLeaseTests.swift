import BehaviorKitTesting
import Commands
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

/// What a worker cut off from its journal logs and counts: the warnings a person must see.
struct ObservabilityLeaseTests {
    let clock = ManualClock()
    let logs = InMemoryLogHandler()
    let metrics = TestMetrics()

    var logger: Logger {
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .trace
        return logger
    }

    func warnings() -> [String] {
        logs.entries.filter { $0.level == .warning }.map(\.message.description)
    }

    @Test func aWorkerCutOffFromItsJournalWarnsOfTheRenewalsAndTheLostLease() async throws {
        let partitioned = PartitionedJournal(InMemoryCommandJournal(clock: clock))
        let invoker = withMetricsFactory(metrics) {
            JournaledInvoker(journal: partitioned, clock: clock, logger: logger)
        }
        let wait = try DurableStep(
            "test.wait", arguments: 1,
            command: ClosureCommand("wait") { [clock] in try await clock.sleep(for: .seconds(100)) })
        let task = Task { try await invoker.transaction("order", key: "t", steps: [wait]).run() }
        await clock.waitForSleepers(count: 2)
        partitioned.cut()
        await clock.advance(by: .seconds(10))
        // The failed renewal is logged before the lease lapses: on a loaded machine the heartbeat
        // could otherwise first look at the clock after both advances, and find the lease gone.
        let renewalFailed = "renewing leases failed; the work goes on while its leases last"
        for _ in 0..<2_000 where !warnings().contains(renewalFailed) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(warnings().contains(renewalFailed))
        await clock.advance(by: .seconds(10))
        await #expect(throws: CommandJournalError.leaseLost(key: "t", owner: nil)) { try await task.value }
        let lost = try #require(
            logs.entries.first {
                $0.message.description == "lease lost: the transaction stopped; another worker settles it"
            })
        #expect(lost.level == .warning && lost.metadata["key"] == "t" && lost.metadata["transaction"] == "order")
        let counted = try metrics.expectCounter(
            "behaviorkit_transactions", [("transaction", "order"), ("outcome", "lease_lost")])
        #expect(counted.totalValue == 1)
    }

    @Test func aQueueWorkerWhoseClaimsFailWarnsAndCountsThem() async throws {
        let partitioned = PartitionedJournal(InMemoryCommandJournal(clock: clock))
        partitioned.cut()
        let invoker = JournaledInvoker(journal: partitioned, clock: clock)
        let worker = withMetricsFactory(metrics) {
            QueueWorker(
                CommandQueue("q", journal: partitioned), invoker: invoker, pollInterval: .seconds(5), logger: logger)
        }
        let running = Task { await worker.run() }
        await clock.waitForSleepers()
        running.cancel()
        await running.value
        let failed = try #require(logs.entries.first { $0.level == .warning })
        #expect(failed.message.description == "claiming failed; retrying after the poll interval")
        #expect(failed.metadata["queue"] == "q" && failed.metadata["retry_after"] == "5.0 seconds")
        #expect(try metrics.expectCounter("behaviorkit_queue_claim_errors", [("queue", "q")]).totalValue >= 1)
    }
}
