import BehaviorKitTesting
import Commands
import Testing

/// A worker's slot is free once its command ended, before the settlement commits: with one slot,
/// the next record runs while the first one's settlement is still on its way (and the first is
/// settled all the same); a transaction keeps its slot until it settled.
struct QueueSlotReleaseTests {
    let clock = ManualClock()
    let trace = Trace()

    @Test func theNextCommandRunsWhileTheLastOnesSettlementCommits() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = RootSettlementGate(journal, root: "first")
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { [trace] text in ClosureCommand("note") { trace(text) }
        }
        let invoker = JournaledInvoker(journal: gate, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: gate)
        try await queue.enqueue(kind: "test.note", arguments: "first", key: "first")
        try await queue.enqueue(kind: "test.note", arguments: "second", key: "second")
        let worker = QueueWorker(queue, invoker: invoker, slots: 1)
        let running = Task { await worker.run() }
        await gate.committed()  // the first settlement is written, its answer held
        #expect(await eventually { journal.records.first { $0.id == "second" }?.status == .done })
        #expect(trace.lines == ["first", "second"])
        gate.answer()
        #expect(await eventually { worker.statistics.done == 2 })
        running.cancel()
        await running.value
        #expect(try await journal.record(forKey: "first")?.status == .done)
    }

    @Test func aTransactionKeepsItsSlotUntilItSettled() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = RootSettlementGate(journal, root: "order")
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { [trace] text in ClosureCommand("note") { trace(text) }
        }
        let invoker = JournaledInvoker(journal: gate, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: gate)
        try await queue.enqueue(
            invoker.transaction("order", key: "order", steps: [try registry.step("test.note", arguments: "step")]))
        try await queue.enqueue(kind: "test.note", arguments: "after", key: "after")
        let worker = QueueWorker(queue, invoker: invoker, slots: 1)
        let running = Task { await worker.run() }
        await gate.committed()
        for _ in 0..<1_000 { await Task.yield() }
        #expect(trace.lines == ["step"], "the next record ran while the transaction settled")
        gate.answer()
        #expect(await eventually { journal.records.first { $0.id == "after" }?.status == .done })
        running.cancel()
        await running.value
    }
}
