import BehaviorKitSync

extension WorkflowContext {
    /// Marks consumed the messages the run received that still wait in their mailbox: the
    /// worker that received one stopped (or lost the message's lease) between writing the
    /// receive's answer and settling the message. The run has them, yet they would be shown as
    /// waiting for ever. Called as the run settles, by the attempt that holds the run now: a
    /// consumed message still held under another lease (a stopped worker's, or a stale attempt's
    /// of this run: no one else receives from the run's mailbox) is taken from its holder at
    /// once, without waiting for that lease to end. Best effort: a journal error leaves it (it is
    /// never received again: the run has it).
    func settleConsumedMessages() async {
        var mailboxes: Set<String> = []
        for record in recorded.values where record.entry.kind == WorkflowRecord.receiveKind {
            mailboxes.insert(
                WorkflowRecord.mailbox(key, topic: String(decoding: record.entry.payload, as: UTF8.self)))
        }
        if let mailbox = state.withLock({ $0.mailbox }) { mailboxes.insert(mailbox) }
        mailboxes.formUnion(state.withLock { $0.receivedFrom })
        let consumed = state.withLock { $0.consumed }
        for mailbox in mailboxes.sorted() {
            let filter = CommandJournalFilter(statuses: [.pending], queue: mailbox)
            guard let waiting = try? await journal.records(matching: filter, after: nil, limit: 8).records,
                waiting.contains(where: { consumed.contains($0.id) })
            else { continue }
            await settleConsumed(in: mailbox, consumed, takingOverFrom: nil)
            // Those a holder kept: taken from it (the run has them; its attempt is over).
            let holders = Set(waiting.filter { consumed.contains($0.id) }.compactMap(\.owner))
            for holder in holders.sorted() { await settleConsumed(in: mailbox, consumed, takingOverFrom: holder) }
        }
    }

    /// Takes the due messages of `mailbox` (and those `holder` holds, due or not): settles those
    /// the run consumed, gives the others back.
    private func settleConsumed(in mailbox: String, _ consumed: Set<String>, takingOverFrom holder: String?) async {
        let lease = engine.invoker.lease
        guard
            let claimed = try? await journal.claim(
                8, from: mailbox, concurrency: nil, takingOverFrom: holder, lease: lease
            ).records
        else { return }
        for message in claimed {
            let messageLease = lease.fenced(by: message)
            if consumed.contains(message.id) {
                try? await journal.settle(message.id, as: .done(output: nil), lease: messageLease)
            } else {
                try? await journal.release(message.id, lease: messageLease, after: .zero)
            }
        }
    }
}
