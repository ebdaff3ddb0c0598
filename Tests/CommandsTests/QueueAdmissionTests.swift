import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// A worker whose leases lapse takes less work at once, and more again as its work settles in
/// time: an overloaded fleet backs off instead of taking over each other's work.
struct QueueAdmissionTests {
    let clock = ManualClock()
    let trace = Trace()

    @Test func aWorkerThatLosesLeasesRunsFewerRecordsAtOnceUntilTheySettleInTime() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let renewals = ScriptedJournal(journal, clock: clock)
        let gate = AsyncGate()
        var registry = CommandRegistry()
        registry.register("test.long", arguments: Int.self) { [trace, clock] number in
            ClosureCommand("long \(number)") {
                trace("start long \(number)")
                try await clock.sleep(for: .seconds(3600))
            }
        }
        registry.register("test.gated", arguments: Int.self) { [trace] number in
            ClosureCommand("gated \(number)") {
                trace("start gated \(number)")
                await gate.wait()
            }
        }
        let invoker = JournaledInvoker(journal: renewals, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        for number in 1...4 { try await queue.enqueue(kind: "test.long", arguments: number, key: "long-\(number)") }
        let worker = QueueWorker(queue, invoker: invoker, slots: 4, pollInterval: .seconds(3600))
        #expect(worker.statistics.openSlots == 4)
        let running = Task { await worker.run() }
        await clock.waitForSleepers(count: 5)  // the four commands and the heartbeat
        renewals.refuse(true)
        await clock.advance(by: .seconds(10))  // the heartbeat renews: no lease kept, the four are lost
        #expect(await eventually { worker.statistics.lost == 4 })
        #expect(await eventually { worker.statistics.openSlots == 1 }, "halved at each loss: 4, 2, 1, 1")

        renewals.refuse(false)
        for number in 1...3 {
            try await queue.enqueue(kind: "test.gated", arguments: number, key: "gated-\(number)")
        }
        #expect(await eventually { trace.lines.contains("start gated 1") })
        #expect(worker.statistics.claimed == 5, "one record at a time after the losses, not three")
        #expect(!trace.lines.contains("start gated 2"))
        gate.open()
        #expect(await eventually { worker.statistics.done == 3 })
        #expect(worker.statistics.claimed == 7)
        #expect(
            await eventually { worker.statistics.openSlots == 3 },
            "one back after one settled in time, one more after two")
        running.cancel()
        await running.value
    }

    @Test func aWorkerWhoseWorkSettlesInTimeKeepsAllItsSlots() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register("test.note", arguments: Int.self) { [trace] number in
            ClosureCommand("note") { trace("note \(number)") }
        }
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        for number in 1...6 { try await queue.enqueue(kind: "test.note", arguments: number, key: "n-\(number)") }
        let worker = QueueWorker(queue, invoker: invoker, slots: 3, pollInterval: .seconds(3600))
        let running = Task { await worker.run() }
        #expect(await eventually { worker.statistics.done == 6 })
        await clock.waitForSleepers(count: 1)  // the worker took in every settlement and sleeps
        #expect(worker.statistics.openSlots == 3)
        running.cancel()
        await running.value
    }
}
