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
        let order = paidOrder(effects)
        let refusing = RefusedMessageSettlement(journal)
        let workflows = worker(refusing, clock, registered(order), owner: "process-1")
        _ = try await workflows.start(order, key: "paid-1", input: 1)
        try await workflows.send("p-1", to: "paid-1", topic: "paid", id: "p-1")
        try await workflows.send("p-1", to: "paid-1", topic: "paid", id: "p-1")
        try expect(try await workflows.runDue() == 1, check, "no worker took the run up")
        let answer = try await workflows.handle(order, key: "paid-1").result()
        try expect(answer == "p-1", check, "the run answered \(answer)")
        try expect(refusing.refused, check, "the message's settlement was never refused: the check tested nothing")
        try await expectSettledDone(journal, "paid-1/message/paid/p-1", check)
        try expect(try await workflows.runDue() == 0, check, "a worker claimed something after the run settled")
        try expect(effects.log == ["shipped p-1"], check, "the run went \(effects.log)")
    }

    /// The same, when the worker cannot settle the message as the run ends either (the
    /// journal refuses again, or the worker is killed there): the run does not settle before
    /// its consumed messages do, so that no run ends with a message it consumed left waiting
    /// for ever. Its attempt stops; the next one, once the lease ended, settles both.
    static func aRunDoesNotSettleBeforeTheMessagesItConsumed(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run settles only once the messages it consumed are settled (nothing left waiting for ever)"
        let effects = WorkflowEffects()
        let order = paidOrder(effects)
        let refusing = RefusedMessageSettlement(journal, refusals: 2)
        let workflows = worker(refusing, clock, registered(order), owner: "process-1")
        _ = try await workflows.start(order, key: "paid-2", input: 2)
        try await workflows.send("p-2", to: "paid-2", topic: "paid", id: "p-2")
        try expect(try await workflows.runDue() == 1, check, "no worker took the run up")
        try expect(
            refusing.refusals == 2, check, "\(refusing.refusals) settlements refused, not 2: the check tested nothing")
        let run = try await journal.record(forKey: "paid-2")
        let message = try await journal.record(forKey: "paid-2/message/paid/p-2")
        try expect(
            run?.status == .pending || message?.status == .done, check,
            "the run settled \(run.map { "\($0.status)" } ?? "missing") while the message it consumed is "
                + "\(message.map { "\($0.status)" } ?? "missing")")
        await clock.advance(by: .seconds(31))
        _ = try await workflows.runDue()
        let answer = try await workflows.handle(order, key: "paid-2").result()
        try expect(answer == "p-2", check, "the run answered \(answer)")
        try await expectSettledDone(journal, "paid-2/message/paid/p-2", check)
        try expect(effects.log == ["shipped p-2"], check, "the run went \(effects.log)")
    }

    /// The workflow "paid order": it receives a payment on the topic "paid" (for an hour at
    /// most), records "shipped <payment>" (or "shipped unpaid") in `effects` in its step "ship",
    /// and answers the payment or "unpaid".
    static func paidOrder(_ effects: WorkflowEffects) -> Workflow<Int, String> {
        Workflow("paid order") { (context, _: Int) -> String in
            let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
            try await context.step("ship") { _ in effects.record("shipped \(paid ?? "unpaid")") }
            return paid ?? "unpaid"
        }
    }

    /// Fails `check` unless the consumed message `key` settled done.
    static func expectSettledDone(_ journal: any CommandJournalManagement, _ key: String, _ check: String) async throws
    {
        let message = try await journal.record(forKey: key)
        try expect(
            message?.status == .done, check,
            "the consumed message is \(message.map { "\($0.status), held by \($0.owner ?? "no one")" } ?? "missing")")
    }
}

/// A journal whose first settlements of a workflow's messages (one, or `refusals`) fail, as a
/// journal error would.
final class RefusedMessageSettlement: ForwardingCommandJournal, @unchecked Sendable {
    private let limit: Int
    private let state = LockedValue(0)

    init(_ base: any CommandJournalManagement, refusals: Int = 1) {
        limit = refusals
        super.init(base)
    }

    /// Whether it refused one.
    var refused: Bool { refusals > 0 }

    /// How many it refused.
    var refusals: Int { state.withLock { $0 } }

    override func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        let limit = limit
        let refuse =
            key.contains("/message/")
            && state.withLock { refused in
                guard refused < limit else { return false }
                refused += 1
                return true
            }
        if refuse { throw CommandJournalError.leaseLost(key: key, owner: lease.owner) }
        try await base.settle(key, as: settlement, lease: lease)
    }
}
