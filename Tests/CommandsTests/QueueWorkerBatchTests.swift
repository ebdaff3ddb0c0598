import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// A busy queue is claimed in batches: the slots that free up while a worker claims are all
/// filled by its next claim, not by a claim each.
struct QueueWorkerBatchTests {
    @Test func slotsFreedDuringAClaimAreFilledByTheNextClaimAtOnce() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let scripted = ScriptedJournal(journal, clock: clock)
        var registry = CommandRegistry()
        registry.register("test.noop", arguments: Int.self) { _ in ClosureCommand("noop") {} }
        let invoker = JournaledInvoker(journal: scripted, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        for number in 0..<48 { try await queue.enqueue(kind: "test.noop", arguments: number, key: "n-\(number)") }
        let worker = QueueWorker(queue, invoker: invoker, slots: 16, pollInterval: .seconds(3600))
        let limits = LockedValue<[Int]>([])
        scripted.beforeEachClaim { limit in
            let first = limits.withLock { limits in
                limits.append(limit)
                return limits.count == 1
            }
            if first { return }
            // Each claim after the first is slow: every record this worker holds settles meanwhile.
            _ = await eventually { worker.statistics.done == worker.statistics.claimed }
            try? await Task.sleep(for: .milliseconds(20))
        }
        let running = Task { await worker.run() }
        #expect(await eventually { worker.statistics.done == 48 })
        running.cancel()
        await running.value
        let taken = limits.withLock { $0 }
        // 16, then what had settled when the second claim began, then the rest of the 16 that
        // freed during it, and so on: about six claims for 48 records (a record a claim: 34).
        #expect(taken.count <= 10, "claims with limits \(taken)")
        #expect(taken.dropFirst(2).contains { $0 >= 8 }, "claims with limits \(taken)")
    }
}
