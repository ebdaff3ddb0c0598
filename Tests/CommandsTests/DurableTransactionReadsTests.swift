import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// What a durable transaction reads besides its writes: a transaction it began reads no steps
/// (none can be recorded under a key that was new), one it took over reads them.
struct DurableTransactionReadsTests {
    /// Counts the reads of a record's children.
    final class ChildReads: ForwardingCommandJournal, @unchecked Sendable {
        let reads = LockedValue(0)

        override func records(parentKey: String) async throws -> [CommandJournalRecord] {
            reads.withLock { $0 += 1 }
            return try await super.records(parentKey: parentKey)
        }
    }

    let stopped = JournalLease(owner: "stopped", duration: .seconds(30))

    func steps(_ count: LockedCount) throws -> [DurableStep] {
        try ["a", "b", "c"].map { name in
            try DurableStep("test.count", arguments: name, command: ClosureCommand(name) { count.add(name) })
        }
    }

    @Test func aTransactionOnANewKeyReadsNoSteps() async throws {
        let base = InMemoryCommandJournal()
        let journal = ChildReads(base)
        let count = LockedCount()
        let order = JournaledInvoker(journal: journal).transaction("order", key: "t", steps: try steps(count))
        let result = try await order.run()
        #expect(result.status == .completed && count.names == ["a", "b", "c"])
        #expect(journal.reads.withLock { $0 } == 0)
        #expect(base.records.map(\.status) == [.done, .done, .done, .done])
    }

    @Test func aTransactionTakenOverReadsTheStepsDone() async throws {
        let clock = ManualClock()
        let base = InMemoryCommandJournal(clock: clock)
        let journal = ChildReads(base)
        let count = LockedCount()
        let order = JournaledInvoker(journal: journal, clock: clock).transaction(
            "order", key: "t", steps: try steps(count))
        _ = try await journal.begin(order.entry, lease: stopped)
        _ = try await journal.append(order.stepEntry(0), lease: stopped)
        try await journal.settle("t/0", as: .done(output: nil), lease: stopped)  // the worker stops after step a
        await clock.advance(by: .seconds(30))
        try await order.run()
        #expect(count.names == ["b", "c"])
        #expect(journal.reads.withLock { $0 } == 1)
    }
}
