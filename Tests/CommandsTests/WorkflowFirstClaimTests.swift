import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// A worker's first claim (the one that takes over an earlier incarnation's records) and the
/// runs its process's callers begin (``Workflows/run(_:key:input:)``).
struct WorkflowFirstClaimTests {
    /// Holds every claim that takes over records until the test lets it answer; counts begins.
    final class HeldTakeover: ForwardingCommandJournal, @unchecked Sendable {
        let gate = AsyncGate()
        let takeovers = LockedValue(0)
        let begins = LockedValue(0)

        override func claim(
            _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
            lease: JournalLease
        ) async throws -> CommandJournalClaim {
            let claim = try await super.claim(
                limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
                lease: lease)
            if deadOwner != nil {
                takeovers.withLock { $0 += 1 }
                await gate.wait()
            }
            return claim
        }

        override func begin(
            _ entry: CommandJournalEntry, queue: String, lease: JournalLease
        ) async throws -> CommandJournalBegin {
            begins.withLock { $0 += 1 }
            return try await super.begin(entry, queue: queue, lease: lease)
        }
    }

    /// A caller's begin sent while the worker's first claim is under way waits for that claim to
    /// answer: a claim that takes over the worker's own records could take the run just begun.
    @Test func aBeginWaitsForTheFirstClaimUnderWay() async throws {
        let clock = ManualClock()
        let journal = HeldTakeover(InMemoryCommandJournal(clock: clock))
        let runs = LockedValue(0)
        let echo = Workflow("echo") { (context, n: Int) -> Int in
            try await context.step("count") { _ in runs.withLock { $0 += 1 } }
            return n
        }
        var registry = WorkflowRegistry()
        registry.register(echo)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: "process-1", clock: clock), pollInterval: .seconds(60))
        let worker = Task { try await workflows.runDue() }
        await journal.gate.waitForWaiter()
        let caller = Task { try await workflows.run(echo, key: "echo-1", input: 7) }
        for _ in 0..<1_000 { await Task.yield() }
        #expect(journal.begins.withLock { $0 } == 0, "the caller began while the first claim was under way")
        journal.gate.open()
        #expect(try await worker.value == 0)
        #expect(try await caller.value == 7)
        #expect(runs.withLock { $0 } == 1)
        #expect(journal.takeovers.withLock { $0 } == 1, "a claim after the begin took over the worker's records")
    }
}
