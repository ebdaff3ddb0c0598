import BehaviorKitSync

extension WorkflowContext {
    /// Marks consumed the messages the run received that still wait in their mailbox: the
    /// worker that received one stopped (or lost the message's lease, or met a journal error)
    /// between writing the receive's answer and settling the message. The run has them, yet they
    /// would be shown as waiting for ever. Called before the run settles, by the attempt that
    /// holds the run now, so that no run ends with a message it consumed left waiting: a
    /// consumed message still held under another lease (a stopped worker's, or a stale
    /// attempt's of this run: no one else receives from the run's mailbox) is taken from its
    /// holder at once, without waiting for that lease to end.
    ///
    /// - Throws: the journal's error, and then the run must not settle yet: the last step's
    ///   settlement, if it waits, is written (so that the next attempt does not run the step
    ///   again), and the next attempt tries again.
    func settleConsumedMessages() async throws {
        do {
            try await settleEachConsumedMessage()
        } catch {
            try? await flush()
            throw error
        }
    }

    private func settleEachConsumedMessage() async throws {
        // Every message it consumed, this attempt settled: nothing to look for.
        let (consumed, settledHere) = state.withLock { ($0.consumed, $0.settledHere) }
        guard !consumed.isSubset(of: settledHere) else { return }
        var mailboxes: Set<String> = []
        for record in recorded.values where record.entry.kind == WorkflowRecord.receiveKind {
            mailboxes.insert(
                WorkflowRecord.mailbox(key, topic: String(decoding: record.entry.payload, as: UTF8.self)))
        }
        if let mailbox = state.withLock({ $0.mailbox }) { mailboxes.insert(mailbox) }
        mailboxes.formUnion(state.withLock { $0.receivedFrom })
        for mailbox in mailboxes.sorted() {
            let filter = CommandJournalFilter(statuses: [.pending], queue: mailbox)
            let waiting = try await journal.records(matching: filter, after: nil, limit: 8).records
            guard waiting.contains(where: { consumed.contains($0.id) }) else { continue }
            try await settleConsumed(in: mailbox, consumed, takingOverFrom: nil)
            // Those a holder kept: taken from it (the run has them; its attempt is over).
            let holders = Set(waiting.filter { consumed.contains($0.id) }.compactMap(\.owner))
            for holder in holders.sorted() { try await settleConsumed(in: mailbox, consumed, takingOverFrom: holder) }
        }
    }

    /// Takes the due messages of `mailbox` (and those `holder` holds, due or not): settles those
    /// the run consumed, gives the others back.
    private func settleConsumed(
        in mailbox: String, _ consumed: Set<String>, takingOverFrom holder: String?
    ) async throws {
        let lease = engine.invoker.lease
        let claimed = try await journal.claim(
            8, from: mailbox, concurrency: nil, takingOverFrom: holder, lease: lease
        ).records
        for message in claimed {
            let messageLease = lease.fenced(by: message)
            if consumed.contains(message.id) {
                try await journal.settle(message.id, as: .done(output: nil), lease: messageLease)
            } else {
                try? await journal.release(message.id, lease: messageLease, after: .zero)
            }
        }
    }
}
