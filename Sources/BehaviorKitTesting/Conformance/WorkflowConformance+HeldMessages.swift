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
        let paid = try await PaidOrderRun.started(1, on: journal, clock, refusals: 1)
        try await paid.pay()
        try expect(try await paid.workflows.runDue() == 1, check, "no worker took the run up")
        try expect(paid.journal.refused, check, "the message's settlement was never refused: the check tested nothing")
        try await paid.expectShippedOnce(journal, check)
        try expect(try await paid.workflows.runDue() == 0, check, "a worker claimed something after the run settled")
    }

    /// The same, when the worker cannot settle the message as the run ends either (the
    /// journal refuses again, or the worker is killed there): the run does not settle before
    /// its consumed messages do, so that no run ends with a message it consumed left waiting
    /// for ever. Its attempt stops; the next one, once the lease ended, settles both.
    static func aRunDoesNotSettleBeforeTheMessagesItConsumed(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run settles only once the messages it consumed are settled (nothing left waiting for ever)"
        let paid = try await PaidOrderRun.started(2, on: journal, clock, refusals: 2)
        try expect(try await paid.workflows.runDue() == 1, check, "no worker took the run up")
        try expect(
            paid.journal.refusals == 2, check,
            "\(paid.journal.refusals) settlements refused, not 2: the check tested nothing")
        let run = try await journal.record(forKey: paid.key)
        let message = try await journal.record(forKey: paid.messageKey)
        try expect(
            run?.status == .pending || message?.status == .done, check,
            "the run settled \(run.map { "\($0.status)" } ?? "missing") while the message it consumed is "
                + "\(message.map { "\($0.status)" } ?? "missing")")
        await clock.advance(by: .seconds(31))
        _ = try await paid.workflows.runDue()
        try await paid.expectShippedOnce(journal, check)
    }
}

/// A run of the workflow "paid order" ("paid-<number>"), which receives a payment on the topic
/// "paid" and ships, on a worker ("process-1") whose journal refuses the first settlements of
/// its messages: the scene of the held-message checks.
struct PaidOrderRun {
    let number: Int
    let effects = WorkflowEffects()
    /// The worker's journal.
    let journal: RefusedMessageSettlement
    let order: Workflow<Int, String>
    let workflows: Workflows

    /// The run's key.
    var key: String { "paid-\(number)" }
    /// Its payment, and the payment message's id.
    var payment: String { "p-\(number)" }
    /// The key of the payment's message.
    var messageKey: String { "\(key)/message/paid/\(payment)" }

    /// The run `number` started, its payment sent once, on `journal` refusing `refusals`
    /// settlements of messages.
    static func started(
        _ number: Int, on journal: any CommandJournalManagement, _ clock: ManualClock, refusals: Int
    ) async throws -> PaidOrderRun {
        let paid = PaidOrderRun(number, RefusedMessageSettlement(journal, refusals: refusals), clock)
        _ = try await paid.workflows.start(paid.order, key: paid.key, input: number)
        try await paid.pay()
        return paid
    }

    private init(_ number: Int, _ journal: RefusedMessageSettlement, _ clock: ManualClock) {
        self.number = number
        self.journal = journal
        let effects = effects
        order = Workflow("paid order") { (context, _: Int) -> String in
            let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
            try await context.step("ship") { _ in effects.record("shipped \(paid ?? "unpaid")") }
            return paid ?? "unpaid"
        }
        workflows = WorkflowConformance.worker(
            journal, clock, WorkflowConformance.registered(order), owner: "process-1")
    }

    /// Sends the payment (again: its id makes it one message).
    func pay() async throws {
        try await workflows.send(payment, to: key, topic: "paid", id: payment)
    }

    /// Fails `check` unless the run answered its payment, shipped once, and its payment's
    /// message settled done in `journal` (the base journal).
    func expectShippedOnce(_ journal: any CommandJournalManagement, _ check: String) async throws {
        let answer = try await workflows.handle(order, key: key).result()
        try WorkflowConformance.expect(answer == payment, check, "the run answered \(answer)")
        let message = try await journal.record(forKey: messageKey)
        try WorkflowConformance.expect(
            message?.status == .done, check,
            "the consumed message is \(message.map { "\($0.status), held by \($0.owner ?? "no one")" } ?? "missing")")
        try WorkflowConformance.expect(
            effects.log == ["shipped \(payment)"], check, "the run went \(effects.log)")
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
