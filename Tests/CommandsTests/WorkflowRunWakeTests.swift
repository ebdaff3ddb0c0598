import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// How ``Workflows/run()`` waits between its claims.
struct WorkflowRunWakeTests {
    /// Counts the claims of the workflows' queue; wakes its workers as the in-memory journal does.
    final class CountingJournal: ForwardingCommandJournal, QueueWakeSource, @unchecked Sendable {
        let claims = LockedValue(0)
        let memory: InMemoryCommandJournal

        init(_ memory: InMemoryCommandJournal) {
            self.memory = memory
            super.init(memory)
        }

        func wakeups(of queue: String) -> AsyncStream<Void> { memory.wakeups(of: queue) }

        override func claim(
            _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
            lease: JournalLease
        ) async throws -> CommandJournalClaim {
            claims.withLock { $0 += 1 }
            return try await super.claim(
                limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
                lease: lease)
        }
    }

    /// A worker woken before its poll (a run started) claims, then waits again: the wait it
    /// cut short does not wake it once more, so it never claims in a loop while nothing is due.
    @Test func aWakeBeforeThePollCostsOneLookNotALoop() async throws {
        let clock = ManualClock()
        let journal = CountingJournal(InMemoryCommandJournal(clock: clock))
        let echo = Workflow("echo") { (_, n: Int) -> Int in n }
        var registry = WorkflowRegistry()
        registry.register(echo)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, clock: clock), pollInterval: .seconds(60))
        let worker = Task { await workflows.run() }
        for n in 1...3 {
            let answer = try await workflows.start(echo, key: "echo-\(n)", input: n).result()
            #expect(answer == n)
        }
        let settled = journal.claims.withLock { $0 }
        for _ in 0..<2_000 { await Task.yield() }
        let later = journal.claims.withLock { $0 }
        worker.cancel()
        await worker.value
        #expect(later <= settled + 2, "the worker claimed \(later - settled) times with nothing due")
    }
}
