import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct QueueWorkerTests {
    let clock = ManualClock()
    let trace = Trace()

    @Test func cancellingAWorkerStopsItsClaimsAndLetsItsWorkFinish() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = AsyncGate()
        var registry = CommandRegistry()
        registry.register("test.slow", arguments: Int.self) { [trace] number in
            ClosureCommand("slow \(number)") {
                trace("start \(number)")
                await gate.wait()
                try Task.checkCancellation()  // a cancelled step would fail, and be undone
                trace("end \(number)")
            } undo: {
                trace("undo \(number)")
            }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        let order = invoker.transaction("order", key: "t", steps: [try registry.step("test.slow", arguments: 1)])
        try await queue.enqueue(order)
        try await queue.enqueue(kind: "test.slow", arguments: 2, key: "later", after: .seconds(60))
        let worker = QueueWorker(queue, invoker: invoker, slots: 2)
        let running = Task { await worker.run() }
        await gate.waitForWaiter()
        running.cancel()
        gate.open()
        await running.value
        #expect(trace.lines == ["start 1", "end 1"], "the transaction ran to its end; nothing was undone")
        #expect(try await journal.record(forKey: "t")?.status == .done)
        await clock.advance(by: .seconds(60))
        #expect(try await journal.record(forKey: "later")?.status == .pending, "no claim after the cancellation")
        #expect(worker.statistics.claimed == 1 && worker.statistics.done == 1)
    }

    @Test func aWorkerClaimsADelayedCommandWhenItFallsDue() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { [trace] text in ClosureCommand("note") { trace(text) }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        try await queue.enqueue(kind: "test.note", arguments: "due", key: "k", after: .seconds(5))
        let worker = QueueWorker(queue, invoker: invoker, pollInterval: .seconds(60))
        let running = Task { await worker.run() }
        await clock.waitForSleepers()
        #expect(trace.lines.isEmpty)
        await clock.advance(by: .seconds(5))  // the worker slept until the record falls due, not a poll interval
        while try await journal.record(forKey: "k")?.status != .done { await Task.yield() }
        #expect(trace.lines == ["due"])
        running.cancel()
        await running.value
    }
}
