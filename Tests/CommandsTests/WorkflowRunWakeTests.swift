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

    /// Loses every wake-up: a sender that stopped between writing its message and waking the run.
    final class WakeLosingJournal: ForwardingCommandJournal, @unchecked Sendable {
        override func wake(_ key: String) async throws -> Bool { false }
    }

    /// A run waiting in a receive whose wake-up was lost takes its message at its safety look,
    /// ten polls after it let go; before that it is not taken up at every poll (each look would
    /// claim it, answer from the journal and let it go again).
    @Test func aWaitWhoseWakeWasLostTakesItsMessageAtTheSafetyLookNotAtEachPoll() async throws {
        let clock = ManualClock()
        let memory = InMemoryCommandJournal(clock: clock)
        let journal = WakeLosingJournal(memory)
        let waiter = Workflow("waiter") { (context, _: Int) -> String in
            try await context.receive(String.self, topic: "go", timeout: .seconds(86_400)) ?? "timed out"
        }
        var registry = WorkflowRegistry()
        registry.register(waiter)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, clock: clock), pollInterval: .seconds(1))
        let handle = try await workflows.start(waiter, key: "waiter", input: 0)
        #expect(try await workflows.runDue() == 1)
        try await workflows.send("go", to: "waiter", topic: "go", id: "go-1")  // its wake is lost
        for _ in 0..<9 {
            await clock.advance(by: .seconds(1))
            #expect(try await workflows.runDue() == 0, "the waiting run was taken up before its safety look")
        }
        await clock.advance(by: .seconds(1))
        #expect(try await workflows.runDue() == 1)
        #expect(try await handle.status() == .done)
        #expect(try await handle.result() == "go")
        #expect(try await memory.record(forKey: "waiter")?.attempts == 2)
    }
}
