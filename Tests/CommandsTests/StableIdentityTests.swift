import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// A worker given a stable identity (a host or pod name) takes back at once what its previous
/// incarnation held, instead of waiting a lease.
struct StableIdentityTests {
    let clock = ManualClock()
    let trace = Trace()

    func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.note", arguments: String.self) { [trace] text in
            ClosureCommand("note") { trace("\(text) attempt \(DurableContext.current?.attempt ?? 0)") }
        }
        return registry
    }

    @Test func aRestartedWorkerRecoversWhatItsPreviousIncarnationHeldAtOnce() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let entry = try CommandRegistry.entry(kind: "test.note", arguments: "caller", key: "k")
        _ = try await journal.begin(entry, lease: JournalLease(owner: "pod-7", duration: .seconds(30)))  // then it died
        let restarted = JournaledInvoker(journal: journal, registry: registry(), owner: "pod-7", clock: clock)
        let report = try await restarted.recover()
        #expect(report.replayed == ["k"], "the lease had 30 s left: \(report)")
        #expect(trace.lines == ["caller attempt 2"])
        let stranger = JournalLease(owner: "pod-8", duration: .seconds(30))
        _ = try await journal.begin(
            try CommandRegistry.entry(kind: "test.note", arguments: "b", key: "b"), lease: stranger)
        #expect(try await restarted.recover().isEmpty, "another live worker's record was taken")
    }

    @Test func aRestartedQueueWorkerTakesBackItsClaimsAtOnce() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let queue = CommandQueue("q", journal: journal)
        _ = try await queue.enqueue(try CommandRegistry.entry(kind: "test.note", arguments: "queued", key: "q1"))
        let dead = JournalLease(owner: "pod-7", duration: .seconds(30))
        #expect(try await journal.claim(1, from: "q", concurrency: nil, lease: dead).records.map(\.id) == ["q1"])
        let restarted = JournaledInvoker(journal: journal, registry: registry(), owner: "pod-7", clock: clock)
        #expect(try await QueueWorker(queue, invoker: restarted).runDue() == 1)
        #expect(trace.lines == ["queued attempt 2"])
        #expect(try await journal.record(forKey: "q1")?.status == .done)
    }
}
