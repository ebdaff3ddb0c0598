import BehaviorKitTesting
import Commands
import InMemoryLogging
import Logging
import Testing

/// What ``Workflows/run()`` does when its journal refuses a claim: it says so, and goes on.
struct WorkflowRunLoggingTests {
    @Test func aClaimThatFailsIsLoggedAndTheWorkerLooksAgain() async throws {
        let clock = ManualClock()
        let journal = PartitionedJournal(InMemoryCommandJournal(clock: clock))
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .trace
        let invoker = JournaledInvoker(journal: journal, clock: clock, logger: logger)
        let workflows = Workflows(
            WorkflowRegistry(), queue: CommandQueue("workflows", journal: journal), invoker: invoker,
            pollInterval: .seconds(1))
        journal.cut()
        let worker = Task { await workflows.run() }
        let failed = "claiming workflows failed; looking again at the next poll"
        let refusals = {
            logs.entries.filter { $0.level == .error && $0.message.description == failed }
        }
        for _ in 0..<10_000 where refusals().count < 2 {
            await clock.advance(by: .seconds(1))
            try await Task.sleep(for: .milliseconds(1))
        }
        worker.cancel()
        await worker.value
        #expect(refusals().count >= 2)
        #expect(refusals().first?.metadata["queue"] == "workflows")
        #expect(refusals().first?.metadata["error"] == "\(PartitionedJournal.Unreachable())")
    }
}
