import BehaviorKitTesting
import Commands
import Testing

/// The wake-ups of a journal's queues in one process (``QueueWakeSource``); the conformance kit
/// checks that a sleeping worker is woken on every store.
struct QueueWakeupTests {
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    @Test func aSignalWakesItsQueueOnlyOnceWhileUnreadAndFinishEndsTheStreams() async {
        let signal = QueueSignal()
        let payments = signal.wakeups(of: "payments")
        let emails = signal.wakeups(of: "emails")
        let idle = signal.wakeups(of: "idle")
        for _ in 0..<3 { signal.signal("payments") }
        signal.signal("emails")
        signal.finish()
        #expect(await count(payments) == 1, "three signals while unread are one wake-up")
        #expect(await count(emails) == 1)
        #expect(await count(idle) == 0, "no other queue's signal wakes it")
        #expect(await count(signal.wakeups(of: "late")) == 0, "a stream asked for after finish() ends at once")
    }

    @Test func aSignalOfNoQueueWakesEveryQueue() async {
        let signal = QueueSignal()
        let a = signal.wakeups(of: "a")
        let b = signal.wakeups(of: "b")
        signal.signal(nil)
        signal.finish()
        #expect(await count(a) == 1)
        #expect(await count(b) == 1)
    }

    @Test func anEnqueueAndARetryWakeTheirQueue() async throws {
        let journal = InMemoryCommandJournal(clock: ManualClock())
        var payments = journal.wakeups(of: "payments").makeAsyncIterator()
        _ = try await journal.enqueue(entry("p"), queue: "payments", after: .zero)
        #expect(await payments.next() != nil, "an enqueue wakes its queue")
        let claimed = try await journal.claim(1, from: "payments", concurrency: nil, lease: lease)
        #expect(claimed.records.map(\.id) == ["p"])
        try await journal.settle("p", as: .failed(reason: "down"), lease: lease)
        _ = try await journal.retry("p")
        #expect(await payments.next() != nil, "a retry wakes its queue")
    }

    func count(_ stream: AsyncStream<Void>) async -> Int {
        var count = 0
        for await _ in stream { count += 1 }
        return count
    }

    func entry(_ key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: "test", payload: [1])
    }
}
