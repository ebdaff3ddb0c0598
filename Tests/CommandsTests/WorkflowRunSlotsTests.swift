import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// How ``Workflows/run()`` fills its slots: a slot freed is claimed again while other runs go on.
struct WorkflowRunSlotsTests {
    /// A run whose step takes long (an HTTP call of a minute) holds its own slot only: a run
    /// started meanwhile is claimed and finishes while it still runs, as a queue worker's
    /// commands do. (The worker used to wait for every run of a claim before it claimed again.)
    @Test func aSlowRunHoldsItsSlotNotTheWorker() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = AsyncGate()
        let slow = Workflow("slow") { (context, _: Int) -> String in
            try await context.step("call") { _ in
                await gate.wait()
                return "slow done"
            }
        }
        let quick = Workflow("quick") { (_, n: Int) -> Int in n * 2 }
        var registry = WorkflowRegistry()
        registry.register(slow)
        registry.register(quick)
        let workflows = Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, clock: clock), slots: 4, pollInterval: .seconds(60))
        let worker = Task { await workflows.run() }
        let slowRun = try await workflows.start(slow, key: "slow", input: 0)
        await gate.waitForWaiter()  // the slow run is in its step
        let quickRun = try await workflows.start(quick, key: "quick", input: 21)
        let answer = Task { try await quickRun.result() }
        let finished = await eventually { journal.records.first { $0.id == "quick" }?.status == .done }
        #expect(finished, "the quick run waited for the slow one")
        gate.open()
        #expect(try await answer.value == 42)
        #expect(try await slowRun.result() == "slow done")
        worker.cancel()
        await worker.value
    }
}
