import BehaviorKitTesting
import Commands
import Testing

/// A worker given a ``QueueRetention`` prunes its queue's settled records as they age, in the
/// passes it wins (the conformance kit checks a pass runs once across four workers on every
/// store). Every sleep is on a manual clock.
struct QueueRetentionTests {
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    @Test func aRunningWorkerPrunesItsQueuesOldRecordsEveryInterval() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let queue = CommandQueue("mail", journal: journal)
        for key in ["old", "elsewhere"] {
            let name = key == "old" ? "mail" : "other"
            _ = try await journal.enqueue(entry(key), queue: name, after: .zero)
            let claimed = try await journal.claim(1, from: name, concurrency: nil, lease: lease)
            try await journal.settle(
                key, as: .done(output: nil), lease: lease.fenced(by: try #require(claimed.records.first)))
        }
        await clock.advance(by: .seconds(7_200))
        let worker = QueueWorker(
            queue, invoker: JournaledInvoker(journal: journal, registry: CommandRegistry(), clock: clock),
            pollInterval: .seconds(3_600),
            retention: QueueRetention(succeeded: .seconds(3_600), failed: nil, interval: .seconds(60)),
            wallClock: clock)
        let run = Task { await worker.run() }
        await clock.waitForSleepers(count: 2)  // the worker's poll, and its retention's interval
        #expect(try await journal.record(forKey: "old") != nil, "the first pass is an interval after the start")
        await clock.advance(by: .seconds(60))
        for _ in 0..<4_000 where worker.statistics.pruned == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(worker.statistics.pruned == 1, "\(worker.statistics)")
        #expect(try await journal.record(forKey: "old") == nil)
        #expect(try await journal.record(forKey: "elsewhere") != nil, "another queue's record was pruned")
        run.cancel()
        await run.value
    }

    func entry(_ key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: "test", payload: [1])
    }
}
