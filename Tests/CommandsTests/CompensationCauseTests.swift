import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

/// A compensation is told why its transaction rolls back (`DurableContext.compensationCause`):
/// the failed step's error, in the run that failed and after a takeover too.
struct CompensationCauseTests {
    struct Declined: Error, CustomStringConvertible {
        var description: String { "card declined" }
    }

    static func registry(_ causes: LockedValue<[String?]>, failCharge: Bool) -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.reserve", arguments: Int.self, output: Int.self) { order, _ in
            order
        } compensate: {
            _, _, context in
            causes.withLock { $0.append(context.compensationCause) }
        }
        registry.register("test.charge", arguments: Int.self, output: Int.self) { order, _ in
            if failCharge { throw Declined() }
            return order
        }
        return registry
    }

    @Test func aCompensationIsToldTheFailedStepsError() async throws {
        let causes = LockedValue<[String?]>([])
        let journal = InMemoryCommandJournal()
        let registry = Self.registry(causes, failCharge: true)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let steps = [try registry.step("test.reserve", arguments: 1), try registry.step("test.charge", arguments: 1)]
        await #expect(throws: TransactionError.self) {
            try await invoker.transaction("order", key: "o1", steps: steps).run()
        }
        #expect(causes.withLock { $0 } == ["card declined"])
    }

    @Test func aTakeoverToldTheSameCauseByTheJournal() async throws {
        let causes = LockedValue<[String?]>([])
        let journal = InMemoryCommandJournal()
        let registry = Self.registry(causes, failCharge: true)
        // A worker wrote the transaction, its first step done and its second failed, and stopped.
        let stopped = JournalLease(owner: "stopped", duration: .zero)
        let dead = JournaledInvoker(journal: journal, registry: registry, owner: "stopped")
        let steps = [try registry.step("test.reserve", arguments: 1), try registry.step("test.charge", arguments: 1)]
        let transaction = dead.transaction("order", key: "o1", recovery: .compensate, steps: steps)
        _ = try await journal.begin(try transaction.entry, lease: stopped)
        try await journal.settle(
            [
                .settle(
                    try CommandRegistry.entry(kind: "test.reserve", arguments: 1, key: "o1/0", parentKey: "o1"),
                    as: .done(output: Array("1".utf8))),
                .settle(
                    try CommandRegistry.entry(kind: "test.charge", arguments: 1, key: "o1/1", parentKey: "o1"),
                    as: .failed(reason: "card declined")),
            ], lease: stopped)
        let report = try await JournaledInvoker(journal: journal, registry: registry, owner: "next").recover()
        #expect(report.compensatedTransactions == ["o1"])
        #expect(causes.withLock { $0 } == ["card declined"])
    }
}
