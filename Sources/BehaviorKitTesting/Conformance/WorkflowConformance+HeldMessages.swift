import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS: "each message is received exactly once" (https://docs.dbos.dev/python/tutorials/workflow-communication),
    /// and a message consumed is gone from the queue. Here the worker that received a message
    /// wrote the receive's answer, but its settlement of the message failed (a journal error),
    /// so the message stays pending, held under that worker's live lease, when the run settles:
    /// the run's settlement takes it from its holder and settles it then, without waiting for
    /// the lease to end, and it is received once.
    static func aConsumedMessageStillHeldIsSettledAsTheRunSettles(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a message the run consumed but a worker still holds is settled as the run settles (DBOS recv once)"
        let effects = WorkflowEffects()
        let order = Workflow("paid order") { (context, _: Int) -> String in
            let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
            try await context.step("ship") { _ in effects.record("shipped \(paid ?? "unpaid")") }
            return paid ?? "unpaid"
        }
        let refusing = RefusedMessageSettlement(journal)
        let workflows = worker(refusing, clock, registered(order), owner: "process-1")
        _ = try await workflows.start(order, key: "paid-1", input: 1)
        try await workflows.send("p-1", to: "paid-1", topic: "paid", id: "p-1")
        try await workflows.send("p-1", to: "paid-1", topic: "paid", id: "p-1")
        try expect(try await workflows.runDue() == 1, check, "no worker took the run up")
        let answer = try await workflows.handle(order, key: "paid-1").result()
        try expect(answer == "p-1", check, "the run answered \(answer)")
        try expect(refusing.refused, check, "the message's settlement was never refused: the check tested nothing")
        let message = try await journal.record(forKey: "paid-1/message/paid/p-1")
        try expect(
            message?.status == .done, check,
            "the consumed message is \(message.map { "\($0.status), held by \($0.owner ?? "no one")" } ?? "missing")")
        try expect(try await workflows.runDue() == 0, check, "a worker claimed something after the run settled")
        try expect(effects.log == ["shipped p-1"], check, "the run went \(effects.log)")
    }
}

/// A journal whose first settlement of a workflow's message fails, as a journal error would.
final class RefusedMessageSettlement: ForwardingCommandJournal, @unchecked Sendable {
    private let state = LockedValue(false)

    /// Whether it refused one.
    var refused: Bool { state.withLock { $0 } }

    override func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        let refuse =
            key.contains("/message/")
            && state.withLock { refused in
                defer { refused = true }
                return !refused
            }
        if refuse { throw CommandJournalError.leaseLost(key: key, owner: lease.owner) }
        try await base.settle(key, as: settlement, lease: lease)
    }
}
